// Classic key/value store on a binary search tree: pointer-to-pointer insert and delete-with-successor, recursive walks with function-pointer visitors, command and error-code tables in the header, malloc'd strings all freed.
// CFLAGS: -std=gnu89 -Wno-implicit-int -Wno-implicit-function-declaration -Wno-return-type -Wno-unused-parameter
// RUN: stdin=kv_store.1.in
// RUN: stdin=kv_store.2.in
// RUN: args=-e stdin=kv_store.3.in
// RUN: stdin=""
// RUN: stdin="set only one\ndel only\ndel only\nstats\nset  spaced   value with  blanks  \ndump\n"
// RUN: args=-x stdin="dump\n"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kv_store.h"

Node *root;
static int ncmds, nerrs;
static char *lo_key, *hi_key;	/* bounds for the range visitor */

/*
 * findp: the link that points, or would point, at the node for key.
 */
Node **
findp(key)
register char *key;
{
	register Node **pp = &root;
	int c;

	while (*pp != NULL) {
		if ((c = strcmp(key, (*pp)->key)) == 0)
			break;
		pp = c < 0 ? &(*pp)->left : &(*pp)->right;
	}
	return pp;
}

/*
 * lookup: the node for name; with create, a new empty one is made
 * when there is none.
 */
Node *
lookup(name, create)
char *name;
int create;
{
	Node **pp, *n;

	pp = findp(name);
	if (*pp != NULL || !create)
		return *pp;
	if ((n = (Node *) malloc(sizeof *n)) == NULL)
		return NULL;
	if ((n->key = strdup(name)) == NULL) {
		free(n);
		return NULL;
	}
	n->val = NULL;
	n->left = n->right = NULL;
	return *pp = n;
}

/*
 * delete: take key out of the tree.  A node with two children gets
 * the key and value of its successor, the leftmost node of its right
 * subtree, and the successor is unlinked instead.
 */
delete(key)
char *key;
{
	Node **pp, **sp, *n, *s;
	char *t;

	pp = findp(key);
	if ((n = *pp) == NULL)
		return E_NOKEY;
	if (n->left == NULL) {
		*pp = n->right;
		goto gone;
	}
	if (n->right == NULL) {
		*pp = n->left;
		goto gone;
	}
	for (sp = &n->right; (*sp)->left != NULL; sp = &(*sp)->left)
		;
	s = *sp;
	*sp = s->right;
	t = n->key, n->key = s->key, s->key = t;
	t = n->val, n->val = s->val, s->val = t;
	n = s;
gone:
	free(n->key);
	free(n->val);
	free((char *) n);
	return E_OK;
}

height(n)
register Node *n;
{
	int l, r;

	if (n == NULL)
		return 0;
	l = height(n->left);
	r = height(n->right);
	return 1 + MAX(l, r);
}

/*
 * walk: in-order, calling fn(node, depth) at each node; returns how
 * many calls said yes.
 */
walk(n, fn, depth)
Node *n;
int (*fn)();
int depth;
{
	int k;

	if (n == NULL)
		return 0;
	k = walk(n->left, fn, depth + 1);
	k += (*fn)(n, depth);
	return k + walk(n->right, fn, depth + 1);
}

freetree(n)
Node *n;
{
	int k;

	if (n == NULL)
		return 0;
	k = freetree(n->left) + freetree(n->right) + 1;
	free(n->key);
	free(n->val);
	free((char *) n);
	return k;
}

static
print_node(n, depth)
Node *n;
int depth;
{
	printf("%s=%s\n", n->key, n->val);
	return 1;
}

static
in_range(n, depth)
Node *n;
int depth;
{
	if (STRLESS(n->key, lo_key) || STRLESS(hi_key, n->key))
		return 0;
	printf("  %s=%s\n", n->key, n->val);
	return 1;
}

static Counts counts;

static
count_node(n, depth)
register Node *n;
int depth;
{
	counts.nodes++;
	counts.depthsum += depth;
	if (n->left == NULL && n->right == NULL)
		counts.leaves++;
	return 1;
}

static
indent(n, c)
short n;
char c;
{
	while (n-- > 0)
		putchar(c);
}

/* sideways picture, right subtree on top */
static
show_tree(n, depth)
Node *n;
int depth;
{
	if (n == NULL)
		return;
	show_tree(n->right, depth + 1);
	indent(depth * 4, ' ');
	printf("%s\n", n->key);
	show_tree(n->left, depth + 1);
}

static
report(label, x)
char *label;
float x;
{
	printf(", %s %.2f", label, x);
}

/*
 * field: the next blank-separated word at *pp, NUL terminated in
 * place; NULL when the line is used up.
 */
char *
field(pp)
char **pp;
{
	register char *p, *start;

	p = *pp + strspn(*pp, " \t");
	if (*p == '\0')
		return NULL;
	start = p;
	p += strcspn(p, " \t");
	if (*p != '\0')
		*p++ = '\0';
	*pp = p;
	return start;
}

static
command(line)
char *line;
{
	register Cmd *cp;
	char *word, *args[2], *rest, *end;
	int n, err;
	Node *np;

	rest = line;
	args[0] = args[1] = NULL;
	if ((word = field(&rest)) == NULL || *word == '#')
		return E_OK;
	ncmds++;
	for (cp = cmdtab; cp->name; cp++)
		if (strcmp(cp->name, word) == 0)
			goto found;
	return E_CMD;
found:
	if (cp->nargs < 0) {
		if ((args[0] = field(&rest)) == NULL)
			return E_ARGS;
		rest += strspn(rest, " \t");
		for (end = rest + strlen(rest); end > rest && (end[-1] == ' ' || end[-1] == '\t'); )
			*--end = '\0';
		n = 1;
	} else {
		for (n = 0; n < 2 && (args[n] = field(&rest)) != NULL; n++)
			;
		if (n != cp->nargs || field(&rest) != NULL)
			return E_ARGS;
	}
	if (n > 0 && strlen(args[0]) > MAXKEY)
		return E_LONG;
	switch (cp->code) {
	case C_SET:
		if ((np = lookup(args[0], 1)) == NULL)
			return E_NOMEM;
		printf("%s %s\n", np->val ? "updated" : "added", np->key);
		free(np->val);
		if ((np->val = strdup(rest)) == NULL)
			return E_NOMEM;
		break;
	case C_GET:
		if ((np = lookup(args[0], 0)) == NULL)
			return E_NOKEY;
		printf("%s = %s\n", np->key, np->val);
		break;
	case C_DEL:
		if ((err = delete(args[0])) != E_OK)
			return err;
		printf("deleted %s\n", args[0]);
		break;
	case C_DUMP:
		if (walk(root, print_node, 0) == 0)
			puts("(empty)");
		break;
	case C_STATS:
		return stats();
	case C_RANGE:
		lo_key = args[0];
		hi_key = args[1];
		printf("range %s..%s:\n", lo_key, hi_key);
		printf("  %d found\n", walk(root, in_range, 0));
		break;
	case C_TREE:
		if (root == NULL)
			return E_EMPTY;
		show_tree(root, 0);
		break;
	case C_CLEAR:
		printf("cleared %d\n", freetree(root));
		root = NULL;
		break;
	}
	return E_OK;
}

main(argc, argv)
int argc;
char **argv;
{
	char line[LINESIZE], *nl;
	int echo = 0, err;

	if (argc > 1) {
		if (strcmp(argv[1], "-e") != 0 || argc > 2) {
			printf("usage: kv_store [-e]\n");
			exit(2);
		}
		echo = 1;
	}
	while (fgets(line, sizeof line, stdin) != NULL) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if (echo)
			printf("> %s\n", line);
		if ((err = command(line)) != E_OK) {
			printf("error: %s\n", errtab[err]);
			nerrs++;
		}
	}
	printf("-- %d commands, %d errors, %d keys left\n", ncmds, nerrs, freetree(root));
	root = NULL;
	return nerrs ? 1 : 0;
}

/* stats: command() above calls it undeclared */
stats()
{
	Node *n;

	if (root == NULL)
		return E_EMPTY;
	counts.nodes = counts.leaves = 0;
	counts.depthsum = 0;
	walk(root, count_node, 0);
	printf("%d keys, %d leaves, height %d", counts.nodes, counts.leaves, height(root));
	report("mean depth", (float) counts.depthsum / counts.nodes);
	for (n = root; n->left != NULL; n = n->left)
		;
	printf(", first %s", n->key);
	for (n = root; n->right != NULL; n = n->right)
		;
	printf(", last %s\n", n->key);
	return E_OK;
}
