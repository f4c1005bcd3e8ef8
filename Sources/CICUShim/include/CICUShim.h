// Unversioned entry points into ICU's C API (ICU renames its symbols per
// release, e.g. ubrk_open_72, through macros Swift cannot import). Each
// function is a thin call into ICU: line and grapheme-cluster break
// iteration (UAX #14, UAX #29) and the character properties text layout
// needs (UTS #51 emoji properties, UAX #24 script).
#ifndef OUTLINE_ICU_SHIM_H
#define OUTLINE_ICU_SHIM_H

#include <stdbool.h>
#include <stdint.h>

/// An ICU break iterator (UBreakIterator).
typedef struct OutlineICUBreakIterator OutlineICUBreakIterator;

/// A line break iterator (UAX #14 as ICU tailors it) for `locale`, e.g.
/// "en@lb=normal"; NULL when ICU cannot make one.
OutlineICUBreakIterator *outline_icu_line_iterator(const char *locale);
/// A grapheme-cluster break iterator (UAX #29 extended grapheme clusters).
OutlineICUBreakIterator *outline_icu_character_iterator(const char *locale);
/// Points `iterator` at `length` UTF-16 code units; the text must outlive
/// its use. Returns false when ICU refuses it.
bool outline_icu_set_text(OutlineICUBreakIterator *iterator, const uint16_t *text, int32_t length);
/// The first boundary (0).
int32_t outline_icu_first(OutlineICUBreakIterator *iterator);
/// The next boundary, or -1 after the last.
int32_t outline_icu_next(OutlineICUBreakIterator *iterator);
/// Frees the iterator.
void outline_icu_close(OutlineICUBreakIterator *iterator);

/// Bits of `outline_icu_emoji_properties`.
enum {
  OUTLINE_ICU_EMOJI = 1,
  OUTLINE_ICU_EMOJI_PRESENTATION = 2,
  OUTLINE_ICU_EMOJI_MODIFIER_BASE = 4,
  OUTLINE_ICU_EMOJI_MODIFIER = 8,
  OUTLINE_ICU_EXTENDED_PICTOGRAPHIC = 16,
  OUTLINE_ICU_REGIONAL_INDICATOR = 32,
};
/// The UTS #51 properties of a code point, as OUTLINE_ICU_* bits.
uint32_t outline_icu_emoji_properties(int32_t c);
/// The Script property (UAX #24) of a code point, as an ICU UScriptCode
/// (0 Common, 1 Inherited).
int32_t outline_icu_script(int32_t c);
/// Whether the Script_Extensions of `c` include `script`.
bool outline_icu_has_script(int32_t c, int32_t script);
/// The Script_Extensions (UAX #24) of `c` into `scripts` (at most
/// `capacity`), as UScriptCodes; returns how many, or -1 when they do not fit.
int32_t outline_icu_script_extensions(int32_t c, int32_t *scripts, int32_t capacity);
/// The ISO 15924 code of a UScriptCode ("Latn", "Hani"), or NULL.
const char *outline_icu_script_code(int32_t script);
/// The general category of a code point, as ICU's UCharCategory.
int32_t outline_icu_general_category(int32_t c);
/// Line_Break classes (UAX #14) that `outline_icu_line_break` may return,
/// with ICU's values (ULineBreak).
enum {
  OUTLINE_ICU_LB_BREAK_AFTER = 4,
  OUTLINE_ICU_LB_CLOSE_PUNCTUATION = 8,
  OUTLINE_ICU_LB_COMBINING_MARK = 9,
  OUTLINE_ICU_LB_EXCLAMATION = 11,
  OUTLINE_ICU_LB_GLUE = 12,
  OUTLINE_ICU_LB_HYPHEN = 13,
  OUTLINE_ICU_LB_INSEPARABLE = 15,
  OUTLINE_ICU_LB_INFIX_NUMERIC = 16,
  OUTLINE_ICU_LB_NONSTARTER = 18,
  OUTLINE_ICU_LB_OPEN_PUNCTUATION = 20,
  OUTLINE_ICU_LB_QUOTATION = 23,
  OUTLINE_ICU_LB_COMPLEX_CONTEXT = 24,
  OUTLINE_ICU_LB_BREAK_SYMBOLS = 27,
  OUTLINE_ICU_LB_ZWSPACE = 28,
  OUTLINE_ICU_LB_WORD_JOINER = 30,
  OUTLINE_ICU_LB_CLOSE_PARENTHESIS = 36,
  OUTLINE_ICU_LB_ZWJ = 42,
};
/// The Line_Break property (UAX #14) of a code point, as ICU's ULineBreak.
int32_t outline_icu_line_break(int32_t c);
/// Whether the East_Asian_Width (UAX #11) of a code point is F, W or H.
bool outline_icu_east_asian(int32_t c);
/// The Bidi_Paired_Bracket_Type of a code point (UAX #9): 0 none, 1 open, 2 close.
int32_t outline_icu_bracket_type(int32_t c);
/// The Bidi_Paired_Bracket of a code point: the bracket that pairs with it, or itself.
int32_t outline_icu_paired_bracket(int32_t c);

#endif
