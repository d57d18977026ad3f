/* test_name_set.c - src/base/name_set.h: names put are found, others are not, across growth
 * and after a clear. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "base/name_set.h"

static uint64_t hash_of(const char *name) { return name_set_hash(name, strlen(name)); }

Test(name_set, an_empty_set_holds_nothing)
{
    struct name_set s = {0};
    cr_assert(!name_set_has(&s, hash_of("Event")));
    name_set_clear(&s);
    name_set_release(&s);
}

Test(name_set, names_put_are_found_across_growth)
{
    struct name_set s = {0};
    char name[32];
    for (int k = 0; k < 5000; k++) {
        snprintf(name, sizeof name, "Tag%d", k);
        name_set_put(&s, hash_of(name));
        name_set_put(&s, hash_of(name)); /* twice: still one */
    }
    cr_assert_eq(s.count, 5000);
    cr_assert_leq(2 * s.count, s.cap, "grown at half full");
    for (int k = 0; k < 10000; k++) {
        snprintf(name, sizeof name, "Tag%d", k);
        cr_assert_eq(name_set_has(&s, hash_of(name)), k < 5000, "%s", name);
    }
    name_set_clear(&s);
    cr_assert_eq(s.count, 0);
    cr_assert(!name_set_has(&s, hash_of("Tag1")));
    name_set_put(&s, hash_of("White"));
    cr_assert(name_set_has(&s, hash_of("White")));
    name_set_release(&s);
    cr_assert_null(s.slots);
}

Test(name_set, the_hash_is_never_zero_and_tells_case)
{
    cr_assert_neq(name_set_hash("", 0), 0);
    cr_assert_neq(hash_of("Event"), hash_of("event"));
    cr_assert_eq(name_set_hash("Event!", 5), hash_of("Event"));
}
