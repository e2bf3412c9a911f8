// Classic integer matrix calculator: K&R definitions with implicit int, structs of two-dimensional arrays passed by pointer and copied by assignment, Bareiss elimination with row swaps, tables in the header, overflow checks that leave through goto.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-return-type
// RUN: stdin=mat_ops.1.in
// RUN: stdin=mat_ops.2.in
// RUN: stdin=""
// RUN: stdin="mul A B\nset A 2 2\n1 2 3\n"
// RUN: args=-q stdin=mat_ops.1.in
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mat_ops.h"

static MATRIX mats[NMATS];
static int quiet;

MATRIX *
slot(name)
	char *name;
{
	if (name[0] < 'A' || name[0] >= 'A' + NMATS || name[1] != '\0')
		return (MATRIX *)0;
	return &mats[name[0] - 'A'];
}

readmat(m, rows, cols)
	MATRIX *m;
	int rows, cols;
{
	register int i, j;

	if (rows < 1 || cols < 1 || rows > MAXN || cols > MAXN)
		return M_SIZE;
	m->rows = rows;
	m->cols = cols;
	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			if (scanf("%ld", &m->a[i][j]) != 1)
				return M_READ;
	return M_OK;
}

madd(r, x, y, sign)
	MATRIX *r, *x, *y;
	int sign;
{
	register int i, j;
	long v;

	if (x->rows != y->rows || x->cols != y->cols)
		return M_SHAPE;
	r->rows = x->rows;
	r->cols = x->cols;
	for (i = 0; i < x->rows; i++)
		for (j = 0; j < x->cols; j++) {
			v = x->a[i][j] + sign * y->a[i][j];
			if (TOOBIG(v))
				return M_OVER;
			r->a[i][j] = v;
		}
	return M_OK;
}

/* r = x * y; r may be x or y */
mmul(r, x, y)
	MATRIX *r, *x, *y;
{
	MATRIX t;
	register int i, j, k;
	long s, p;

	if (x->cols != y->rows)
		return M_SHAPE;
	t.rows = x->rows;
	t.cols = y->cols;
	for (i = 0; i < t.rows; i++)
		for (j = 0; j < t.cols; j++) {
			s = 0;
			for (k = 0; k < x->cols; k++) {
				if (TOOBIG(x->a[i][k]) || TOOBIG(y->a[k][j]))
					goto over;
				p = x->a[i][k] * y->a[k][j];
				s += p;
				if (TOOBIG(s) && k == x->cols - 1)
					goto over;
			}
			t.a[i][j] = s;
		}
	*r = t;
	return M_OK;
over:
	return M_OVER;
}

static
transpose(r, x)
	MATRIX *r, *x;
{
	MATRIX t;
	register int i, j;

	t.rows = x->cols;
	t.cols = x->rows;
	for (i = 0; i < x->rows; i++)
		for (j = 0; j < x->cols; j++)
			t.a[j][i] = x->a[i][j];
	*r = t;
}

/* Bareiss: every intermediate is a minor, so the divisions are exact */
long
det(x, err)
	MATRIX *x;
	int *err;
{
	long m[MAXN][MAXN], prev = 1, t;
	register int i, j, k;
	int n = x->rows, swaps = 0, p;

	*err = M_OK;
	if (x->rows != x->cols) {
		*err = M_SHAPE;
		return 0;
	}
	memcpy(m, x->a, sizeof m);
	for (k = 0; k < n - 1; k++) {
		if (m[k][k] == 0) {
			for (p = k + 1; p < n && m[p][k] == 0; p++)
				;
			if (p == n)
				return 0;
			for (j = 0; j < n; j++) {
				t = m[k][j];
				m[k][j] = m[p][j];
				m[p][j] = t;
			}
			swaps++;
		}
		for (i = k + 1; i < n; i++)
			for (j = k + 1; j < n; j++) {
				if (TOOBIG(m[i][j]) || TOOBIG(m[k][k]) || TOOBIG(m[i][k]) || TOOBIG(m[k][j])) {
					*err = M_OVER;
					return 0;
				}
				m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) / prev;
			}
		prev = m[k][k];
	}
	return sgn[swaps & 1] * m[n - 1][n - 1];
}

static
show(name, m)
	char *name;
	MATRIX *m;
{
	register int i, j;

	if (quiet) {
		printf("%s: %dx%d\n", name, m->rows, m->cols);
		return;
	}
	printf("%s =\n", name);
	for (i = 0; i < m->rows; i++) {
		for (j = 0; j < m->cols; j++)
			printf(" %6ld", m->a[i][j]);
		putchar('\n');
	}
}

main(argc, argv)
	int argc;
	char **argv;
{
	char cmd[16], x[8], y[8], z[8];
	MATRIX *r, *a, *b;
	int rows, cols, e, n, i, errors = 0;
	long d;

	quiet = argc > 1 && strcmp(argv[1], "-q") == 0;
	while (scanf("%15s", cmd) == 1) {
		e = M_OK;
		if (strcmp(cmd, "set") == 0) {
			if (scanf("%7s %d %d", x, &rows, &cols) != 3 || (r = slot(x)) == NULL)
				goto bad;
			e = readmat(r, rows, cols);
		} else if (strcmp(cmd, "id") == 0) {
			if (scanf("%7s %d", x, &n) != 2 || (r = slot(x)) == NULL || n < 1 || n > MAXN)
				goto bad;
			memset(r, 0, sizeof *r);
			r->rows = r->cols = n;
			for (i = 0; i < n; i++)
				r->a[i][i] = unit[0];
		} else if (strcmp(cmd, "show") == 0) {
			if (scanf("%7s", x) != 1 || (r = slot(x)) == NULL)
				goto bad;
			show(x, r);
		} else if (strcmp(cmd, "det") == 0) {
			if (scanf("%7s", x) != 1 || (a = slot(x)) == NULL)
				goto bad;
			d = det(a, &e);
			if (e == M_OK)
				printf("det %s = %ld\n", x, d);
		} else if (strcmp(cmd, "t") == 0) {
			if (scanf("%7s %7s", z, x) != 2 || (r = slot(z)) == NULL || (a = slot(x)) == NULL)
				goto bad;
			transpose(r, a);
		} else if (strcmp(cmd, "pow") == 0) {
			if (scanf("%7s %7s %d", z, x, &n) != 3 || (r = slot(z)) == NULL
			    || (a = slot(x)) == NULL || n < 0)
				goto bad;
			b = &mats[NMATS - 1];
			*b = *a;
			if (a->rows != a->cols) {
				e = M_SHAPE;
			} else {
				memset(r, 0, sizeof *r);
				r->rows = r->cols = a->rows;
				for (i = 0; i < a->rows; i++)
					r->a[i][i] = 1;
				for (; n > 0 && e == M_OK; n >>= 1) {
					if (n & 1)
						e = mmul(r, r, b);
					if (e == M_OK && n > 1)
						e = mmul(b, b, b);
				}
			}
		} else if (strcmp(cmd, "add") == 0 || strcmp(cmd, "sub") == 0 || strcmp(cmd, "mul") == 0) {
			if (scanf("%7s %7s %7s", z, x, y) != 3 || (r = slot(z)) == NULL
			    || (a = slot(x)) == NULL || (b = slot(y)) == NULL)
				goto bad;
			if (cmd[0] == 'm')
				e = mmul(r, a, b);
			else
				e = madd(r, a, b, cmd[0] == 'a' ? 1 : -1);
		} else
			goto bad;
		if (e != M_OK) {
			printf("%s: %s\n", cmd, merr[e]);
			errors++;
		}
		continue;
bad:
		printf("%s: %s\n", cmd, merr[M_NAME]);
		errors++;
	}
	printf("%d error(s)\n", errors);
	return errors ? 1 : 0;
}
