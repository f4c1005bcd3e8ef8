#include "CICUShim.h"

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>

_Static_assert(OUTLINE_ICU_LB_BREAK_AFTER == U_LB_BREAK_AFTER, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_CLOSE_PUNCTUATION == U_LB_CLOSE_PUNCTUATION, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_COMBINING_MARK == U_LB_COMBINING_MARK, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_EXCLAMATION == U_LB_EXCLAMATION, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_GLUE == U_LB_GLUE, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_HYPHEN == U_LB_HYPHEN, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_INSEPARABLE == U_LB_INSEPARABLE, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_INFIX_NUMERIC == U_LB_INFIX_NUMERIC, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_NONSTARTER == U_LB_NONSTARTER, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_OPEN_PUNCTUATION == U_LB_OPEN_PUNCTUATION, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_QUOTATION == U_LB_QUOTATION, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_BREAK_SYMBOLS == U_LB_BREAK_SYMBOLS, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_ZWSPACE == U_LB_ZWSPACE, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_WORD_JOINER == U_LB_WORD_JOINER, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_CLOSE_PARENTHESIS == U_LB_CLOSE_PARENTHESIS, "ULineBreak");
_Static_assert(OUTLINE_ICU_LB_ZWJ == U_LB_ZWJ, "ULineBreak");

static OutlineICUBreakIterator *open_iterator(UBreakIteratorType type, const char *locale) {
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *it = ubrk_open(type, locale, NULL, 0, &status);
  if (U_FAILURE(status)) {
    if (it) ubrk_close(it);
    return NULL;
  }
  return (OutlineICUBreakIterator *)it;
}

OutlineICUBreakIterator *outline_icu_line_iterator(const char *locale) { return open_iterator(UBRK_LINE, locale); }

OutlineICUBreakIterator *outline_icu_character_iterator(const char *locale) {
  return open_iterator(UBRK_CHARACTER, locale);
}

bool outline_icu_set_text(OutlineICUBreakIterator *iterator, const uint16_t *text, int32_t length) {
  UErrorCode status = U_ZERO_ERROR;
  ubrk_setText((UBreakIterator *)iterator, (const UChar *)text, length, &status);
  return U_SUCCESS(status);
}

int32_t outline_icu_first(OutlineICUBreakIterator *iterator) { return ubrk_first((UBreakIterator *)iterator); }

int32_t outline_icu_next(OutlineICUBreakIterator *iterator) {
  int32_t next = ubrk_next((UBreakIterator *)iterator);
  return next == UBRK_DONE ? -1 : next;
}

void outline_icu_close(OutlineICUBreakIterator *iterator) { ubrk_close((UBreakIterator *)iterator); }

uint32_t outline_icu_emoji_properties(int32_t c) {
  uint32_t bits = 0;
  if (u_hasBinaryProperty(c, UCHAR_EMOJI)) bits |= OUTLINE_ICU_EMOJI;
  if (u_hasBinaryProperty(c, UCHAR_EMOJI_PRESENTATION)) bits |= OUTLINE_ICU_EMOJI_PRESENTATION;
  if (u_hasBinaryProperty(c, UCHAR_EMOJI_MODIFIER_BASE)) bits |= OUTLINE_ICU_EMOJI_MODIFIER_BASE;
  if (u_hasBinaryProperty(c, UCHAR_EMOJI_MODIFIER)) bits |= OUTLINE_ICU_EMOJI_MODIFIER;
  if (u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC)) bits |= OUTLINE_ICU_EXTENDED_PICTOGRAPHIC;
  if (u_hasBinaryProperty(c, UCHAR_REGIONAL_INDICATOR)) bits |= OUTLINE_ICU_REGIONAL_INDICATOR;
  return bits;
}

int32_t outline_icu_script(int32_t c) {
  UErrorCode status = U_ZERO_ERROR;
  UScriptCode script = uscript_getScript(c, &status);
  return U_SUCCESS(status) ? (int32_t)script : USCRIPT_COMMON;
}

bool outline_icu_has_script(int32_t c, int32_t script) { return uscript_hasScript(c, (UScriptCode)script); }

int32_t outline_icu_script_extensions(int32_t c, int32_t *scripts, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  UScriptCode buffer[32];
  int32_t n = uscript_getScriptExtensions(c, buffer, 32, &status);
  if (U_FAILURE(status) || n > capacity) return -1;
  for (int32_t i = 0; i < n; i++) scripts[i] = (int32_t)buffer[i];
  return n;
}

const char *outline_icu_script_code(int32_t script) { return uscript_getShortName((UScriptCode)script); }

int32_t outline_icu_general_category(int32_t c) { return (int32_t)u_charType(c); }

int32_t outline_icu_bracket_type(int32_t c) {
  switch (u_getIntPropertyValue(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE)) {
    case U_BPT_OPEN: return 1;
    case U_BPT_CLOSE: return 2;
    default: return 0;
  }
}

int32_t outline_icu_paired_bracket(int32_t c) { return u_getBidiPairedBracket(c); }

int32_t outline_icu_line_break(int32_t c) { return u_getIntPropertyValue(c, UCHAR_LINE_BREAK); }

bool outline_icu_east_asian(int32_t c) {
  switch (u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH)) {
    case U_EA_FULLWIDTH:
    case U_EA_WIDE:
    case U_EA_HALFWIDTH: return true;
    default: return false;
  }
}
