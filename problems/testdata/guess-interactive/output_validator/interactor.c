/* Interactor of Hidden Number (Kattis protocol):
 *
 *	interactor input_file answer_file feedback_dir/ < submission_out > submission_in
 *
 * Reads x from input_file, answers up to 10 questions "? g", exits 42 when
 * the submission found x and then printed nothing more, 43 (with
 * judgemessage.txt) otherwise. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *feedback;

static void verdict(int code, const char *msg) {
    char path[4096];
    snprintf(path, sizeof path, "%sjudgemessage.txt", feedback);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n", msg);
        fclose(f);
    }
    exit(code);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: interactor input_file answer_file feedback_dir/\n");
        return 1;
    }
    feedback = argv[3];
    signal(SIGPIPE, SIG_IGN);
    FILE *in = fopen(argv[1], "r");
    int x;
    if (!in || fscanf(in, "%d", &x) != 1) {
        fprintf(stderr, "cannot read x from %s\n", argv[1]);
        return 1;
    }
    fclose(in);
    char line[64];
    for (int q = 1;; q++) {
        if (!fgets(line, sizeof line, stdin))
            verdict(43, "the submission stopped asking before it found x");
        int g;
        char rest;
        if (sscanf(line, "? %d %c", &g, &rest) != 1 || g < 1 || g > 1000)
            verdict(43, "not a question \"? g\" with 1 <= g <= 1000");
        if (q > 10)
            verdict(43, "more than 10 questions");
        const char *answer = x < g ? "less" : x > g ? "more" : "found";
        printf("%s\n", answer);
        fflush(stdout);
        if (x == g)
            break;
    }
    if (fgets(line, sizeof line, stdin))
        verdict(43, "output after x was found");
    verdict(42, "found");
}
