/* The floor for opening a file: read it, then run libyaml's event loop over
 * it and do nothing else. Prints "<seconds> <events> <peak RSS bytes (VmHWM)>". */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <yaml.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: yaml-events FILE\n");
    return 64;
  }
  double t0 = now();
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc(size > 0 ? size : 1);
  if (fread(buf, 1, size, f) != (size_t)size) {
    perror("read");
    return 1;
  }
  fclose(f);
  yaml_parser_t parser;
  yaml_event_t event;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, buf, size);
  long events = 0;
  for (;;) {
    if (!yaml_parser_parse(&parser, &event)) {
      fprintf(stderr, "yaml error at line %lu: %s\n", (unsigned long)parser.problem_mark.line + 1,
              parser.problem ? parser.problem : "?");
      return 1;
    }
    events++;
    int done = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    if (done) break;
  }
  yaml_parser_delete(&parser);
  double t1 = now();
  /* VmHWM, not getrusage: ru_maxrss may count the spawning process's memory. */
  long hwm = 0;
  char line[256];
  FILE *st = fopen("/proc/self/status", "r");
  while (st && fgets(line, sizeof line, st))
    if (strncmp(line, "VmHWM:", 6) == 0) hwm = atol(line + 6) * 1024;
  if (st) fclose(st);
  printf("%.6f %ld %ld\n", t1 - t0, events, hwm);
  free(buf);
  return 0;
}
