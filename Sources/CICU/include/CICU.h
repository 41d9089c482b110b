#ifndef CICU_H
#define CICU_H
// ICU's collation (libicu), for the stations' order by name in the feed's language, behind
// types of our own: a module that exposed ICU's headers would clash with the ICU that
// Foundation carries in any target that imports both (the tests), whose enums differ.
#include <stdint.h>

typedef struct CICUCollator CICUCollator;

// The collation of `locale` (an ICU locale id or BCP 47 tag; "" is the root collation), or
// NULL when ICU cannot open one.
CICUCollator *cicu_open(const char *locale);

void cicu_close(CICUCollator *collator);

// Negative, zero or positive as UTF-8 `a` sorts before, with or after `b`.
int cicu_compare_utf8(const CICUCollator *collator, const char *a, int32_t a_length, const char *b, int32_t b_length);
#endif
