struct vec3 {
    double x, y, z;
};
static double dot(struct vec3 a, struct vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
int ray_hits(struct vec3 o, struct vec3 d, double r) {
    double a = dot(d, d);
    double b = 2.0 * dot(o, d);
    double c = dot(o, o) - r * r;
    return b * b - 4.0 * a * c >= 0.0;
}
