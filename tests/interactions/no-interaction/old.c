/* Exam results: NAME SCORE pairs; prints each student's letter and pass mark, then
 * how many passed. */
#include <stdio.h>
#include <stdlib.h>

#define MAX_STUDENTS 6

struct student {
    const char *name;
    int score;
};

static char letter_for(int score)
{
    if (score >= 90)
        return 'A';
    if (score >= 80)
        return 'B';
    if (score >= 65)
        return 'C';
    return 'D';
}

static int passes(int score)
{
    int ok = score >= 50;
    return ok;
}

int main(int argc, char **argv)
{
    struct student roster[MAX_STUDENTS];
    int n = 0;
    for (int i = 1; i + 1 < argc && n < MAX_STUDENTS; i += 2) {
        roster[n].name = argv[i];
        roster[n].score = atoi(argv[i + 1]);
        n++;
    }
    int passed = 0;
    for (struct student *s = roster; s < roster + n; s++) {
        char letter = letter_for(s->score);
        int ok = passes(s->score);
        printf("%-6s %3d %c %s\n", s->name, s->score, letter, ok ? "pass" : "fail");
        passed += ok;
    }
    printf("passed %d of %d\n", passed, n);
    return 0;
}
