// simdjson's DOM parser behind the C interface of include/CSimdJSON.h. The only code of
// the project that sees C++.
#include "CSimdJSON.h"

// As Debian's simdjson.pc asks (SwiftPM passes only its -I, -L and -l flags): the library
// was built with it, and it changes the layout of simdjson::dom::parser.
#ifndef SIMDJSON_THREADS_ENABLED
#define SIMDJSON_THREADS_ENABLED 1
#endif
#include <simdjson.h>

#include <cmath>
#include <cstring>
#include <new>
#include <vector>

static_assert(CSJ_PADDING == simdjson::SIMDJSON_PADDING, "CSJ_PADDING must be simdjson's padding");

namespace {

/// Capacity kept after a parse, in bytes of input; more is released.
constexpr size_t kept_capacity = size_t(1) << 20;
/// Capacity of a new parser, in bytes of input.
constexpr size_t initial_capacity = 4096;
constexpr uint64_t payload_mask = (uint64_t(1) << 56) - 1;

uint64_t word(char type, uint64_t payload) { return (uint64_t(uint8_t(type)) << 56) | payload; }

}  // namespace

struct csj_parser {
  simdjson::dom::parser parser;
  size_t max_depth;
  /// Input capacity of the parser and its document, in bytes.
  size_t capacity = 0;
  /// A padded copy of the input, for unpadded input and for big integers.
  std::vector<uint8_t> scratch;
  size_t tape_count = 0;
  size_t string_count = 0;

  explicit csj_parser(size_t depth) : max_depth(depth) {}

  /// Makes room for `length` bytes of input, growing geometrically so that a stream of
  /// slowly growing messages does not reallocate for each.
  simdjson::error_code reserve(size_t length) {
    if (length <= capacity) return simdjson::SUCCESS;
    size_t wanted = capacity == 0 ? initial_capacity : capacity;
    while (wanted < length) wanted = wanted > SIZE_MAX / 2 ? length : wanted * 2;
    if (wanted > parser.max_capacity()) wanted = length;
    if (wanted > parser.max_capacity()) return simdjson::CAPACITY;
    // simdjson counts the root as a level and an empty innermost array or object as none:
    // one more level than ours lets every text of max_depth levels through, and
    // normalize() refuses the deeper ones it also lets through.
    if (auto error = parser.allocate(wanted, max_depth + 1)) return error;
    if (auto error = parser.doc.allocate(wanted)) return error;
    capacity = wanted;
    return simdjson::SUCCESS;
  }

  /// Releases the buffers of a parser that grew beyond kept_capacity.
  void trim() {
    if (capacity <= kept_capacity) return;
    parser = simdjson::dom::parser();
    capacity = 0;
    std::vector<uint8_t>().swap(scratch);
  }

  /// Copies `length` bytes into `scratch` followed by padding; returns its start.
  const uint8_t *padded_copy(const uint8_t *bytes, size_t length) {
    scratch.assign(bytes, bytes + length);
    scratch.resize(length + simdjson::SIMDJSON_PADDING, ' ');
    return scratch.data();
  }

  simdjson::error_code parse(const uint8_t *bytes, size_t length) {
    if (auto error = reserve(length)) return error;
    return parser.parse(bytes, length, false).error();
  }
};

namespace {

/// Whether the `count` decimal digits at `digits` exceed what 64 bits hold: Int64.min's
/// magnitude for a negative number, UInt64.max otherwise (simdjson reads those).
bool beyond_64_bits(const uint8_t *digits, size_t count, bool negative) {
  static const char min_magnitude[] = "9223372036854775808";
  static const char max_unsigned[] = "18446744073709551615";
  const char *limit = negative ? min_magnitude : max_unsigned;
  size_t limit_count = std::strlen(limit);
  if (count != limit_count) return count > limit_count;
  return std::memcmp(digits, limit, count) > 0;
}

/// Copies the text into `out`, followed by padding, with `.0` after every integer token
/// (outside strings) beyond 64 bits, so that simdjson reads it as a double. Returns false
/// and leaves `out` alone when there is no such token.
///
/// Only the digit run of a number not followed by `.`, `e` or `E` is touched, so a text
/// that was invalid for another reason stays invalid.
bool widen_big_integers(const uint8_t *text, size_t length, std::vector<uint8_t> &out) {
  std::vector<size_t> ends;
  size_t i = 0;
  bool in_string = false;
  while (i < length) {
    uint8_t c = text[i];
    if (in_string) {
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '"') in_string = false;
      i += 1;
      continue;
    }
    if (c == '"') {
      in_string = true;
      i += 1;
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) {
      i += 1;
      continue;
    }
    bool negative = c == '-';
    if (negative) i += 1;
    size_t digits = i;
    while (i < length && text[i] >= '0' && text[i] <= '9') i += 1;
    bool integer = i == length || (text[i] != '.' && text[i] != 'e' && text[i] != 'E');
    if (integer && beyond_64_bits(text + digits, i - digits, negative)) ends.push_back(i);
    while (i < length && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.' || text[i] == 'e' || text[i] == 'E' ||
                          text[i] == '+' || text[i] == '-')) {
      i += 1;
    }
  }
  if (ends.empty()) return false;
  out.clear();
  out.reserve(length + 2 * ends.size() + simdjson::SIMDJSON_PADDING);
  size_t copied = 0;
  for (size_t end : ends) {
    out.insert(out.end(), text + copied, text + end);
    out.push_back('.');
    out.push_back('0');
    copied = end;
  }
  out.insert(out.end(), text + copied, text + length);
  out.resize(out.size() + simdjson::SIMDJSON_PADDING, ' ');
  return true;
}

csj_status status_of(simdjson::error_code error) {
  switch (error) {
  case simdjson::SUCCESS: return CSJ_OK;
  case simdjson::EMPTY: return CSJ_EMPTY;
  case simdjson::UTF8_ERROR: return CSJ_INVALID_UTF8;
  case simdjson::DEPTH_ERROR: return CSJ_TOO_DEEP;
  case simdjson::STRING_ERROR: return CSJ_INVALID_STRING;
  case simdjson::UNESCAPED_CHARS: return CSJ_CONTROL_CHARACTER;
  case simdjson::UNCLOSED_STRING: return CSJ_UNCLOSED_STRING;
  case simdjson::NUMBER_ERROR: return CSJ_INVALID_NUMBER;
  case simdjson::T_ATOM_ERROR:
  case simdjson::F_ATOM_ERROR:
  case simdjson::N_ATOM_ERROR: return CSJ_INVALID_LITERAL;
  case simdjson::TAPE_ERROR:
  case simdjson::TRAILING_CONTENT:
  case simdjson::INCOMPLETE_ARRAY_OR_OBJECT: return CSJ_INVALID_STRUCTURE;
  case simdjson::CAPACITY: return CSJ_TOO_LARGE;
  case simdjson::MEMALLOC: return CSJ_OUT_OF_MEMORY;
  default: return CSJ_OTHER;
  }
}

/// Rewrites the numbers of the tape to 'l' and 'd' only (see CSimdJSON.h), sets
/// `string_end` to the number of bytes of the string buffer in use, and returns the
/// deepest nesting of arrays and objects.
size_t normalize(uint64_t *tape, size_t count, const uint8_t *strings, size_t &string_end) {
  string_end = 0;
  size_t depth = 0;
  size_t deepest = 0;
  size_t i = 1;  // tape[0] and tape[count - 1] are the root words.
  while (i + 1 < count) {
    char type = char(tape[i] >> 56);
    switch (type) {
    case '"': {
      uint64_t offset = tape[i] & payload_mask;
      uint32_t length;
      std::memcpy(&length, strings + offset, sizeof length);
      size_t end = size_t(offset) + sizeof length + length + 1;
      if (end > string_end) string_end = end;
      i += 1;
      break;
    }
    case 'l': i += 2; break;
    case 'u': {
      uint64_t value = tape[i + 1];
      if (value <= uint64_t(INT64_MAX)) {
        tape[i] = word('l', 0);
      } else {
        double d = double(value);
        tape[i] = word('d', 0);
        std::memcpy(&tape[i + 1], &d, sizeof d);
      }
      i += 2;
      break;
    }
    case 'd': {
      double d;
      std::memcpy(&d, &tape[i + 1], sizeof d);
      // Strictly above -2^63: a double that rounds to it came from a number below Int64.min.
      if (d > -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::trunc(d)) {
        int64_t value = int64_t(d);
        tape[i] = word('l', 0);
        std::memcpy(&tape[i + 1], &value, sizeof value);
      }
      i += 2;
      break;
    }
    case '[':
    case '{':
      depth += 1;
      if (depth > deepest) deepest = depth;
      i += 1;
      break;
    case ']':
    case '}':
      depth -= 1;
      i += 1;
      break;
    default: i += 1; break;
    }
  }
  return deepest;
}

}  // namespace

extern "C" {

csj_parser *csj_parser_create(size_t max_depth) { return new (std::nothrow) csj_parser(max_depth); }

void csj_parser_destroy(csj_parser *parser) { delete parser; }

csj_result csj_parse(csj_parser *parser, const uint8_t *bytes, size_t length, bool padded) {
  csj_result result = {CSJ_OK, 0, 0};
  // A byte order mark may be ignored (RFC 8259 §8.1); the end, and its padding, stay.
  if (length >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) {
    bytes += 3;
    length -= 3;
  }
  if (!padded) bytes = parser->padded_copy(bytes, length);
  simdjson::error_code error = parser->parse(bytes, length);
  // simdjson 3.0 refuses an integer beyond 64 bits as a malformed number.
  if (error == simdjson::NUMBER_ERROR) {
    // The scratch buffer may hold the input itself: widen from a copy of it.
    std::vector<uint8_t> widened;
    if (widen_big_integers(bytes, length, widened)) {
      parser->scratch.swap(widened);
      simdjson::error_code retry = parser->parse(parser->scratch.data(), parser->scratch.size() - CSJ_PADDING);
      if (!retry) error = simdjson::SUCCESS;
    }
  }
  if (error) {
    parser->trim();
    result.status = status_of(error);
    return result;
  }
  uint64_t *tape = parser->parser.doc.tape.get();
  size_t count = size_t(tape[0] & payload_mask) + 1;
  size_t depth = normalize(tape, count, parser->parser.doc.string_buf.get(), parser->string_count);
  if (depth > parser->max_depth) {
    parser->trim();
    result.status = CSJ_TOO_DEEP;
    return result;
  }
  parser->tape_count = count;
  result.tape_count = parser->tape_count;
  result.string_count = parser->string_count;
  return result;
}

void csj_copy(csj_parser *parser, uint64_t *tape, uint8_t *strings) {
  std::memcpy(tape, parser->parser.doc.tape.get(), parser->tape_count * sizeof(uint64_t));
  if (parser->string_count > 0) std::memcpy(strings, parser->parser.doc.string_buf.get(), parser->string_count);
  parser->trim();
}

}  // extern "C"
