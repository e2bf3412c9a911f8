unsigned crc8(unsigned crc, unsigned byte) {
    crc = (crc ^ byte) & 0xffu;
    for (int i = 0; i < 8; i++) {
        if (crc & 0x80u)
            crc = ((crc << 1) ^ 0x31u) & 0xffu;
        else
            crc = (crc << 1) & 0xffu;
    }
    return crc;
}
