struct vec3 {
    double x, y, z;
};
int ray_hits(struct vec3 o, struct vec3 d, double r) {
    double a = d.x * d.x + d.y * d.y + d.z * d.z;
    double b = 2.0 * (o.x * d.x + o.y * d.y + o.z * d.z);
    double c = (o.x * o.x + o.y * o.y + o.z * o.z) - r * r;
    double disc = b * b - 4.0 * a * c;
    return disc >= 0.0;
}
