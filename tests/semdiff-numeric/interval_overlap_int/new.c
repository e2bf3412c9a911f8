int overlap(int amin, int amax, int bmin, int bmax) {
    return !(amin > bmax || bmin > amax);
}
