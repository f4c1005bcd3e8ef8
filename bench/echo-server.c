/* The floor for a request over stdio: reads LSP-framed messages
 * (Content-Length header, blank line, body) from stdin and answers each with
 * the same small framed response, echoing the request's id when it is a
 * number. No JSON parsing beyond finding "id":.
 *
 * echo-server N: the result is instead a string of N bytes, so the answer is
 * as big as a real one (the floor of moving that many bytes over stdio). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static char *buf;
static size_t cap = 1 << 20, len = 0, pos = 0;
static char out[1 << 21];
static char *result = "null";
static size_t outlen = 0;

static void flush_out(void) {
  size_t off = 0;
  while (off < outlen) {
    ssize_t n = write(1, out + off, outlen - off);
    if (n <= 0) exit(1);
    off += n;
  }
  outlen = 0;
}

static int fill(void) {
  if (pos > 0) {
    memmove(buf, buf + pos, len - pos);
    len -= pos;
    pos = 0;
  }
  if (len == cap) {
    cap *= 2;
    buf = realloc(buf, cap);
  }
  ssize_t n = read(0, buf + len, cap - len);
  if (n <= 0) return 0;
  len += n;
  return 1;
}

int main(int argc, char **argv) {
  buf = malloc(cap);
  if (argc > 1) {
    long n = atol(argv[1]);
    if (n < 0 || n > (1 << 20)) return 2;
    result = malloc(n + 3);
    result[0] = '"';
    memset(result + 1, 'x', n);
    result[n + 1] = '"';
    result[n + 2] = 0;
  }
  for (;;) {
    /* Find the end of the header. */
    char *end;
    while (!(end = memmem(buf + pos, len - pos, "\r\n\r\n", 4))) {
      if (outlen) flush_out();
      if (!fill()) return 0;
    }
    long clen = -1;
    for (char *p = buf + pos; p < end; p++) {
      if ((p == buf + pos || p[-1] == '\n') && strncasecmp(p, "Content-Length:", 15) == 0) clen = atol(p + 15);
    }
    if (clen < 0) return 1;
    size_t body = (end - buf) + 4;
    while (len < body + clen) {
      if (outlen) flush_out();
      size_t hdr = body - pos;
      if (!fill()) return 0;
      body = pos + hdr;
    }
    char *b = buf + body;
    long id = 0;
    char *q = memmem(b, clen, "\"id\":", 5);
    if (q) id = atol(q + 5);
    char head[64];
    int hl = snprintf(head, sizeof head, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"result\":", id);
    size_t rl = hl + strlen(result) + 1;
    if (outlen + rl + 64 > sizeof out) flush_out();
    outlen += snprintf(out + outlen, sizeof out - outlen, "Content-Length: %zu\r\n\r\n%s%s}", rl, head, result);
    pos = body + clen;
    /* Answer at once when no more input is buffered (lockstep), else batch. */
    if (pos == len) flush_out();
  }
}
