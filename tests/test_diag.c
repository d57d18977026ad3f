/* test_diag.c - the code table and the diagnostic list. */
#include <criterion/criterion.h>
#include <string.h>

#include "base/diag.h"

Test(diag, every_code_has_a_distinct_upper_case_name)
{
    for (int a = 0; a < DIAG_CODE_COUNT; a++) {
        const char *name = diag_code_name((enum diag_code)a);
        cr_assert(strlen(name) > 0);
        for (const char *p = name; *p; p++)
            cr_assert((*p >= 'A' && *p <= 'Z') || *p == '_', "bad name %s", name);
        for (int b = a + 1; b < DIAG_CODE_COUNT; b++)
            cr_assert_str_neq(name, diag_code_name((enum diag_code)b));
    }
}

Test(diag, list_add_formats_and_counts_errors)
{
    struct diag_list list;
    diag_list_init(&list);
    diag_list_add(&list, DIAG_ILLEGAL, 3, 7, "no %s can reach %s", "knight", "e5");
    diag_list_add(&list, DIAG_CHECK_MISSING, 4, 1, "x");
    cr_assert_eq(list.count, 2);
    cr_assert_str_eq(list.items[0].message, "no knight can reach e5");
    cr_assert_eq(list.items[0].line, 3);
    cr_assert_eq(list.items[0].col, 7);
    cr_assert_eq(list.items[0].severity, DIAG_ERROR);
    cr_assert_eq(list.items[1].severity, DIAG_WARNING);
    cr_assert_eq(diag_list_errors(&list), 1);
    diag_list_clear(&list);
    cr_assert_eq(list.count, 0);
    diag_list_release(&list);
}

Test(diag, long_messages_are_truncated_not_overflowed)
{
    struct diag d;
    char big[1000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    diag_set(&d, DIAG_SYNTAX, 1, 1, "%s", big);
    cr_assert_eq(strlen(d.message), DIAG_MESSAGE_MAX - 1);
}
