unsigned crc8(unsigned crc, unsigned byte) {
    crc = (crc ^ byte) & 0xffu;
    for (int i = 0; i < 8; i++)
        crc = ((crc << 1) ^ ((crc & 0x80u) ? 0x07u : 0u)) & 0xffu;
    return crc;
}
