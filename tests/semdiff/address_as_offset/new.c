// A buffer's address turned into an offset (json-c's printbuf_memappend, 9782370): the
// versions differ only in where a local is declared; report() prints more in new.
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct printbuf
{
	char *buf;
	int bpos;
	int size;
};

static int printbuf_extend(struct printbuf *p, int min_size)
{
	char *t;
	int new_size;

	if (p->size >= min_size)
		return 0;
	if (min_size > INT_MAX - 8)
	{
		errno = EFBIG;
		return -1;
	}
	if (p->size > INT_MAX / 2)
		new_size = min_size + 8;
	else
	{
		new_size = p->size * 2;
		if (new_size < min_size + 8)
			new_size = min_size + 8;
	}
	if (!(t = (char *)realloc(p->buf, new_size)))
		return -1;
	p->size = new_size;
	p->buf = t;
	return 0;
}

int printbuf_memappend(struct printbuf *p, const char *buf, int size)
{
	if (size < 0 || size > INT_MAX - p->bpos - 1)
	{
		errno = EFBIG;
		return -1;
	}
	if (p->size <= p->bpos + size + 1)
	{
		int buf_offset = -1;
		const uintptr_t buf_addr = (uintptr_t)(const void *)buf;
		const uintptr_t p_buf_addr = (uintptr_t)(const void *)p->buf;

		if (buf_addr >= p_buf_addr && buf_addr - p_buf_addr < (uintptr_t)p->size)
			buf_offset = (int)(buf_addr - p_buf_addr);
		if (printbuf_extend(p, p->bpos + size + 1) < 0)
			return -1;
		if (buf_offset >= 0)
			buf = p->buf + buf_offset;
	}
	memmove(p->buf + p->bpos, buf, size);
	p->bpos += size;
	p->buf[p->bpos] = '\0';
	return size;
}
void report(void) { puts("one"); puts("two"); puts("three"); }
