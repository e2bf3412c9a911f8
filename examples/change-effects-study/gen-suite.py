#!/usr/bin/env python3
"""Writes the test suite of sched (base.c) to standard output, one test a line.

Each line holds the program's argument words, shell-quoted where needed, in the
format `ripple effects --tests` reads.  The suite is fixed by the seed below:

    python3 gen-suite.py > suite.txt

Tests come in four groups: random command sequences (most of the suite),
sequences that finish many processes (long output lines), edge cases of the
operands and options, and malformed command lines.
"""

import random
import shlex

SEED = 2012
TESTS = 540

COMMANDS = ["new", "upgrade", "block", "unblock", "quantum", "tick", "finish",
            "flush", "status"]
WEIGHTS = [26, 9, 10, 10, 16, 6, 11, 3, 5]


def spell(rng, name):
    """A command word: mostly the full name, sometimes a prefix or in capitals."""
    r = rng.random()
    if r < 0.08:
        name = name[:rng.randint(2, len(name))]
    elif r < 0.12:
        name = name.upper()
    elif r < 0.14:
        name = name.capitalize()
    return name


def ratio(rng):
    """A ratio operand in one of the accepted notations."""
    kind = rng.random()
    if kind < 0.45:
        return rng.choice(["0", "0.1", "0.2", "0.25", "0.3", "0.4", "0.5", "0.6",
                           "0.7", "0.75", "0.8", "0.9", "1", "1.0", ".5", ".25"])
    if kind < 0.60:
        return "0.%03d" % rng.randint(0, 999)
    if kind < 0.75:
        return "%d%%" % rng.choice([0, 10, 20, 25, 33, 40, 50, 60, 66, 75, 80, 90,
                                    100, rng.randint(0, 100)])
    den = rng.randint(1, 9)
    return "%d/%d" % (rng.randint(0, den), den)


def options(rng):
    words = []
    if rng.random() < 0.3:
        words.append("-v")
    if rng.random() < 0.2:
        words += ["-q", str(rng.choice([1, 2, 3, 5, 8, 10, 20]))]
    if rng.random() < 0.2:
        words += ["-a", str(rng.choice([1, 2, 4, 6, 10, 16, 25, 50, 100]))]
    return words


def command(rng, name):
    words = [spell(rng, name)]
    if name == "new":
        words.append(str(rng.choice([1, 1, 2, 2, 2, 3])))
    elif name == "upgrade":
        words += [str(rng.choice([1, 1, 2, 2, 3])), ratio(rng)]
    elif name == "unblock":
        words.append(ratio(rng))
    elif name == "tick":
        words.append(str(rng.choice([1, 2, 3, 4, 5, 7, 10, 15, 30, 100,
                                     rng.randint(1, 1000)])))
    return words


def sequence(rng, length):
    words = command(rng, "new")
    for _ in range(length - 1):
        words += command(rng, rng.choices(COMMANDS, WEIGHTS)[0])
    if rng.random() < 0.5:
        words += command(rng, "flush")
    return words


def random_test(rng):
    return options(rng) + sequence(rng, rng.randint(2, 28))


def busy_test(rng):
    """Many processes, most of them finishing: long output lines."""
    words = options(rng)
    for _ in range(rng.randint(10, 30)):
        words += command(rng, "new")
        if rng.random() < 0.3:
            words += command(rng, rng.choice(["quantum", "finish", "block"]))
    if rng.random() < 0.3:
        words += ["unblock", ratio(rng), "unblock", ratio(rng)]
    return words + ["flush"]


EDGE = [
    ["-v"], ["-a", "5"], ["new", "1"], ["new", "3", "finish"], ["flush"],
    ["status"],
    ["finish", "finish"], ["block", "unblock", "1"], ["quantum"],
    ["new", "2", "block", "unblock", "0"], ["new", "2", "block", "unblock", "1"],
    ["new", "1", "tick", "1000", "status"], ["new", "1", "tick", "1"],
    ["-q", "1", "new", "2", "quantum", "quantum", "quantum", "status"],
    ["-q", "20", "new", "2", "new", "2", "quantum", "status"],
    ["-a", "1", "new", "1", "new", "1", "new", "3", "tick", "1", "status"],
    ["-a", "1000", "new", "1", "new", "3", "tick", "999", "tick", "1", "status"],
    ["-v", "new", "3", "new", "3", "new", "3", "quantum", "quantum", "quantum",
     "quantum", "quantum", "quantum", "status"],
    ["new", "1", "new", "1", "upgrade", "1", "1", "status"],
    ["new", "1", "new", "1", "upgrade", "1", "0", "status"],
    ["new", "2", "new", "2", "upgrade", "3", "1", "status"],
    ["new", "1", "new", "1", "new", "1", "upgrade", "1", "2/3", "status"],
    ["new", "1", "new", "1", "new", "1", "upgrade", "1", "0.667", "status"],
    ["new", "1", "new", "1", "new", "1", "upgrade", "1", "66%", "status"],
    ["new", "1", "new", "1", "new", "1", "upgrade", "1", "0.6666", "status"],
    ["new", "2", "block", "new", "2", "block", "new", "2", "block",
     "unblock", "1/3", "status"],
    ["ne", "1", "UP", "1", "1", "bl", "unb", ".5", "QU", "Fi", "fl", "st"],
    ["NEW", "2", "Status"], ["Flush"],
    ["new", "2"] * 40 + ["flush"],
    ["new", "1"] * 39 + ["flush"],
    ["-v", "-q", "3", "-a", "7"] + ["new", "1", "new", "2", "new", "3"] * 4
    + ["quantum"] * 10 + ["flush"],
]

MALFORMED = [
    ["new"], ["new", "0"], ["new", "4"], ["new", "x"], ["new", "-1"],
    ["new", "2", "upgrade", "1"], ["new", "1", "upgrade", "0", "0.5"],
    ["new", "1", "upgrade", "1", "1.5"], ["new", "1", "unblock", "-0.5"],
    ["new", "1", "unblock", "abc"], ["new", "1", "unblock", "."],
    ["new", "1", "unblock", "3/2"], ["new", "1", "unblock", "1/0"],
    ["new", "1", "unblock", "101%"], ["new", "1", "unblock", "%"],
    ["new", "1", "tick", "0"], ["new", "1", "tick", "1001"],
    ["new", "1", "tick"], ["n", "1"], ["x"], ["new", "1", "run"],
    ["-x", "new", "1"], ["-q", "0", "new", "1"], ["-q", "21", "new", "1"],
    ["-a", "0", "new", "1"], ["-q"], [""],
    ["new", "2"] * 41, ["new", "1", "status", "f"],
    ["-v", "new", "3", "quantum", "new", "9"],
]


def malformed_random(rng):
    """A random sequence with one word spoiled."""
    words = random_test(rng)
    i = rng.randrange(len(words))
    words[i] = rng.choice(["zz", "5", "1.5", "-", "new", "Q", "0/0", "tick"])
    return words


def main():
    rng = random.Random(SEED)
    tests = [list(t) for t in EDGE] + [list(t) for t in MALFORMED]
    for _ in range(8):
        tests.append(malformed_random(rng))
    for _ in range(40):
        tests.append(busy_test(rng))
    while len(tests) < TESTS:
        tests.append(random_test(rng))
    rng.shuffle(tests)
    for words in tests:
        print(" ".join(shlex.quote(w) for w in words))


if __name__ == "__main__":
    main()
