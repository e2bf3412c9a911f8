// Atomic and __sync builtins as single-threaded loads and stores: load, store, exchange, compare-exchange, fetch-ops
#include <stdio.h>

struct pair { int a, b; };

static int counter;

int main(void) {
    signed char c = 120;
    unsigned short us = 65535;
    int i = 5, expected = 5, old;
    long l = -7;
    int arr[4] = {10, 20, 30, 40};
    int *p = arr;
    struct pair s = {1, 2}, t = {3, 4}, r;
    _Bool ok;
    unsigned char flag = 0;

    __atomic_store_n(&counter, 41, __ATOMIC_SEQ_CST);
    printf("load %d\n", __atomic_load_n(&counter, __ATOMIC_ACQUIRE) + 1);
    old = __atomic_fetch_add(&counter, 9, __ATOMIC_RELAXED);
    printf("fetch_add %d now %d\n", old, counter);
    printf("add_fetch %d\n", __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
    old = __atomic_fetch_sub(&i, 7, __ATOMIC_RELAXED);
    printf("sub %d %d\n", old, __atomic_sub_fetch(&i, 1, 0));
    old = __atomic_add_fetch(&c, 10, 0);
    printf("char wraps %d %d\n", old, __atomic_fetch_sub(&c, 1, 0));
    old = __atomic_add_fetch(&us, 2, 0);
    printf("ushort wraps %d %u\n", old, (unsigned)__atomic_fetch_or(&us, 0x8000, 0));
    printf("and %ld", __atomic_fetch_and(&l, 0xff, 0));
    printf(" xor %ld", __atomic_xor_fetch(&l, 3, 0));
    printf(" nand %ld", __atomic_nand_fetch(&l, 6, 0));
    printf(" %ld\n", l);
    printf("sync %d", __sync_fetch_and_add(&counter, 1));
    printf(" %d", __sync_add_and_fetch(&counter, 1));
    printf(" %d", __sync_fetch_and_xor(&counter, 0xf));
    printf(" %d", __sync_or_and_fetch(&counter, 0x100));
    printf(" %d\n", __sync_fetch_and_sub(&counter, 0x10));
    i = 5;
    old = __atomic_exchange_n(&i, 8, __ATOMIC_SEQ_CST);
    printf("exchange %d %d\n", old, i);
    ok = __atomic_compare_exchange_n(&i, &expected, 9, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    printf("cas fail %d i=%d expected=%d\n", ok, i, expected);
    expected = 8;
    ok = __atomic_compare_exchange_n(&i, &expected, 9, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    printf("cas ok %d i=%d expected=%d\n", ok, i, expected);
    {
        int want = 9, desired = 11;
        ok = __atomic_compare_exchange(&i, &want, &desired, 0, 5, 5);
        printf("cas generic %d %d\n", ok, i);
    }
    ok = __sync_bool_compare_and_swap(&i, 11, 12);
    printf("sync cas %d", ok);
    ok = __sync_bool_compare_and_swap(&i, 11, 13);
    printf(" %d %d\n", ok, i);
    old = __sync_val_compare_and_swap(&i, 12, 14);
    printf("sync val cas %d %d\n", old, i);
    old = __sync_lock_test_and_set(&i, 1);
    printf("test_and_set %d %d\n", old, i);
    __sync_lock_release(&i);
    printf("released %d\n", i);
    /* Pointers move by bytes, not elements. */
    __atomic_fetch_add(&p, sizeof(int) * 2, __ATOMIC_RELAXED);
    printf("pointer %d\n", *p);
    p = __atomic_load_n(&p, 0) - 1;
    printf("pointer %d\n", *p);
    /* Generic forms copy whole objects. */
    __atomic_load(&s, &r, __ATOMIC_SEQ_CST);
    __atomic_store(&s, &t, __ATOMIC_SEQ_CST);
    printf("pair %d %d %d %d\n", r.a, r.b, s.a, s.b);
    __atomic_exchange(&s, &r, &t, __ATOMIC_SEQ_CST);
    printf("pair exchange %d %d %d %d\n", s.a, s.b, t.a, t.b);
    ok = __atomic_test_and_set(&flag, __ATOMIC_SEQ_CST);
    printf("flag %d %d", ok, flag);
    ok = __atomic_test_and_set(&flag, __ATOMIC_SEQ_CST);
    __atomic_clear(&flag, __ATOMIC_SEQ_CST);
    printf(" %d %d\n", ok, flag);
    __sync_synchronize();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    printf("lock free %d %d %d\n", __atomic_always_lock_free(4, 0), __atomic_always_lock_free(8, 0),
           __atomic_always_lock_free(3, 0));
    return 0;
}
