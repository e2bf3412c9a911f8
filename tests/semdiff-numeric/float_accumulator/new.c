double mean4(const float *a) {
    float s = 0.0f;
    for (int i = 0; i < 4; i++)
        s += a[i];
    return s / 4;
}
