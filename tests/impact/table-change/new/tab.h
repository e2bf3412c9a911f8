/* Successor table of the walk: next[i] is the node after i (0 ends the walk). */
static int next[] = { 0, 3, 2, 0 };
