// A record parameter whose versions include other headers (json-c: new includes
// <inttypes.h>), so its type has another id in each version.
#include <inttypes.h>
#include <stdlib.h>

struct pair
{
	char *buf;
	int bpos;
	int size;
};

int grow(struct pair *p, int n)
{
	p->bpos += n + 1;
	return p->bpos;
}
