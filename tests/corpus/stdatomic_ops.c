// C11 atomics through <stdatomic.h>: typedefs, _Atomic(T), loads, stores, read-modify-writes, compare-exchange, exchange, flags, fences; one thread.
// RUN:
// RUN: args=a b c
#include <stdatomic.h>
#include <stdio.h>

static atomic_int counter = ATOMIC_VAR_INIT(1);
static _Atomic(long) total = 5;
static atomic_flag busy = ATOMIC_FLAG_INIT;
static _Atomic unsigned mask;

static int bump(int k) {
    int before = atomic_fetch_add(&counter, k);
    atomic_fetch_sub_explicit(&counter, 1, memory_order_relaxed);
    atomic_store_explicit(&total, atomic_load(&total) + k, memory_order_release);
    atomic_fetch_or(&mask, 1u << k);
    atomic_fetch_and(&mask, ~2u);
    atomic_fetch_xor(&mask, 8u);
    return before;
}

int main(int argc, char **argv) {
    (void)argv;
    atomic_init(&mask, 4u);
    int a = bump(argc);
    int b = bump(3);
    int expected = 7;
    _Bool swapped = atomic_compare_exchange_strong(&counter, &expected, 100);
    printf("%d %d counter %d total %ld mask %u swapped %d expected %d\n", a, b,
           atomic_load(&counter), (long)atomic_load(&total), atomic_load(&mask), swapped,
           expected);
    expected = atomic_load(&counter);
    swapped = atomic_compare_exchange_weak_explicit(&counter, &expected, 42, memory_order_acq_rel,
                                                    memory_order_acquire);
    int old = atomic_exchange(&counter, 9);
    atomic_thread_fence(memory_order_seq_cst);
    _Bool first = atomic_flag_test_and_set(&busy);
    _Bool second = atomic_flag_test_and_set(&busy);
    atomic_flag_clear(&busy);
    _Bool third = atomic_flag_test_and_set_explicit(&busy, memory_order_acquire);
    printf("%d %d %d flags %d %d %d lock-free %d\n", swapped, old, atomic_load(&counter), first,
           second, third, atomic_is_lock_free(&counter));
    return 0;
}
