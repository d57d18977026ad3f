/* helpers.c - shared test helpers. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/fen.h"

char *th_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    cr_assert_eq(fread(data, 1, (size_t)n, f), (size_t)n);
    data[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return data;
}

bool th_next_epd(FILE *f, struct position *pos, char *fen, size_t cap)
{
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "epd ", 4) != 0)
            continue;
        size_t len = strcspn(line + 4, "\n");
        struct diag err;
        cr_assert_eq(fen_parse(pos, line + 4, len, false, &err), 0, "%s: %s", line + 4,
                     err.message);
        snprintf(fen, cap, "%.*s", (int)len, line + 4);
        return true;
    }
    return false;
}

bool th_next_epd_line(FILE *f, bool chess960, struct position *pos, char *fen, size_t cap)
{
    char line[512];
    while (fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, ";\n");
        while (len && line[len - 1] == ' ')
            len--;
        if (!len)
            continue;
        struct diag err;
        cr_assert_eq(fen_parse(pos, line, len, chess960, &err), 0, "%.*s: %s", (int)len, line,
                     err.message);
        snprintf(fen, cap, "%.*s", (int)len, line);
        return true;
    }
    return false;
}
