unsigned long high_of_scaled(unsigned long u) {
    unsigned __int128 wide = (unsigned __int128)u * 4294967296UL * 4294967296UL;
    return (unsigned long)(wide >> 64);
}
