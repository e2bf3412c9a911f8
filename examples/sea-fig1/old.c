/* Jasz et al., Static Execute After (SEA), Figure 1 -- OLD (the figure's program) version.
 * The figure's C++ program rewritten in C, keeping its procedures and call
 * structure: string* -> char* (strdup/free for new/delete), cin/cout ->
 * scanf/printf, atof -> strtod; readInputs exits at end of input (the C++
 * loop would spin forever). Link with -lm (sin and cos are called through
 * the function pointer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <math.h>

typedef struct Func{
    char* name;
    double (*func)(double);
    struct Func* nextFunc;
} *Function;

void init (Function* list){
    Function tmp = (Function) malloc (sizeof(struct Func));
    tmp->name = strdup("sin");
    tmp->func = sin;
    tmp->nextFunc = NULL;
    *list = tmp;

    tmp=(Function) malloc (sizeof(struct Func));
    tmp->name = strdup("cos");
    tmp->func = cos;
    tmp->nextFunc = *list;
    *list = tmp;
}

void deleteName(Function elem){
    if (elem->name)
        free(elem->name);
}

void deleteFunctions (Function list){
    Function tmp=list;
    while (tmp){
        Function next = tmp->nextFunc;
        deleteName(tmp);
        free(tmp);
        tmp = next;
    }
}

void readInputs(char* inputFunction, double* input){
    printf("What is the selected function? ");
    if (scanf("%63s", inputFunction) != 1)
        exit(EXIT_FAILURE);
    printf("What is the argument? ");
    char arg[64];
    if (scanf("%63s", arg) != 1)
        exit(EXIT_FAILURE);
    *input = strtod(arg, NULL);
}

bool checkInputs(Function list, const char* input, Function* selected){
    Function tmp = list;
    while (tmp){
        if (strcmp(tmp->name, input) == 0){
            *selected = tmp;
            break;
        }
        tmp = tmp->nextFunc;
    }
    return *selected != NULL;
}

int main(void){
    Function functionList = NULL;
    init(&functionList);

    char inputFunc[64];
    Function selectedFunc = NULL;
    double input = 0.0;
    bool isAnyInput = false;
    while (!isAnyInput){
        readInputs(inputFunc, &input);
        isAnyInput = checkInputs(functionList, inputFunc, &selectedFunc);
    }

    printf("%s(%g)=%g\n", inputFunc, input, selectedFunc->func(input));

    deleteFunctions(functionList);
}
