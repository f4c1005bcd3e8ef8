// A plain C face for simdjson's DOM parser (Debian's libsimdjson-dev), so that Swift
// reads JSON without seeing C++. See Sources/CSimdJSON/CSimdJSON.cpp.
//
// A parse turns one JSON text (RFC 8259) into simdjson's tape (doc/tape.md in simdjson):
// 64-bit words in document order, the top byte a type letter and the low 56 bits a
// payload, plus a string buffer holding each string as a 32-bit little-endian byte length,
// the unescaped UTF-8 bytes and a NUL. The caller copies both out with csj_copy.
//
// Two departures from simdjson's own tape, so that the reader needs no number rules:
// - numbers are only 'l' (Int64) or 'd' (Double): an integral double strictly within
//   Int64's range is written 'l' (7.0 reads as 7), an unsigned integer above Int64.max is
//   written 'd';
// - an integer beyond 64 bits, which simdjson refuses, is read as a double.
#ifndef CSIMDJSON_H
#define CSIMDJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How many readable bytes a parse may read past the end of its input (simdjson's
/// SIMDJSON_PADDING). Their values do not matter.
#define CSJ_PADDING 64

/// A reusable parser: its buffers grow to the largest text seen and are released
/// after a text of more than 1 MiB. Not thread-safe: one parse at a time.
typedef struct csj_parser csj_parser;

/// Why a text was refused.
typedef enum csj_status {
  CSJ_OK = 0,
  /// No value: the text is empty or only whitespace.
  CSJ_EMPTY,
  /// The bytes are not valid UTF-8.
  CSJ_INVALID_UTF8,
  /// Arrays and objects nest deeper than the parser's limit.
  CSJ_TOO_DEEP,
  /// A string has an invalid escape or an unpaired UTF-16 surrogate escape.
  CSJ_INVALID_STRING,
  /// A string holds an unescaped control character (U+0000 to U+001F).
  CSJ_CONTROL_CHARACTER,
  /// A string is not closed.
  CSJ_UNCLOSED_STRING,
  /// A number is malformed or outside the range of a double.
  CSJ_INVALID_NUMBER,
  /// A word that is not true, false or null.
  CSJ_INVALID_LITERAL,
  /// Misplaced or missing brackets, braces, commas or colons, or trailing content.
  CSJ_INVALID_STRUCTURE,
  /// The text is larger than the parser accepts (4 GiB).
  CSJ_TOO_LARGE,
  /// Memory could not be allocated.
  CSJ_OUT_OF_MEMORY,
  /// Any other refusal of the library.
  CSJ_OTHER,
} csj_status;

/// The outcome of csj_parse.
typedef struct csj_result {
  /// CSJ_OK, or why the text was refused.
  csj_status status;
  /// On success, the number of tape words (at least 2: the root words).
  size_t tape_count;
  /// On success, the number of bytes of the string buffer in use.
  size_t string_count;
} csj_result;

/// A new parser accepting `max_depth` levels of nested arrays and objects (`[[1]]` and
/// `[[]]` are 2); NULL when out of memory.
csj_parser *csj_parser_create(size_t max_depth);

/// Frees a parser made by csj_parser_create; NULL is ignored.
void csj_parser_destroy(csj_parser *parser);

/// Parses the `length` bytes at `bytes` as one JSON text. A leading UTF-8 byte order mark
/// is skipped (RFC 8259 §8.1).
///
/// When `padded` is true, CSJ_PADDING bytes after `bytes + length` must be readable and
/// the text is read in place; otherwise it is first copied into a padded buffer of the
/// parser. The tape stays in the parser until its next parse.
csj_result csj_parse(csj_parser *parser, const uint8_t *bytes, size_t length, bool padded);

/// Copies the tape (`tape_count` words) and the string buffer (`string_count` bytes) of
/// the last successful parse. Then releases the parser's buffers if they grew beyond
/// 1 MiB of input.
void csj_copy(csj_parser *parser, uint64_t *tape, uint8_t *strings);

#ifdef __cplusplus
}
#endif

#endif
