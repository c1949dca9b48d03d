/* Model RPC program for the native (desktop) platform: the same RPC server
 * as board_main.c, with stdin and stdout as the link, so the host runs the
 * model as a child process on its pipes. POSIX read(0)/write(1), no stdio
 * buffering; profiler ticks are CLOCK_MONOTONIC nanoseconds. Exits 0 when
 * stdin closes (the host is done), 1 when the pipes fail.
 *
 * Built with the crt sources (core, registry, profiler, framing, rpc) and the
 * model's model_descriptor.c. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/rpc_server.h>
#include <unistd.h>

#include "rpc_firmware.h"

/* Device memory for ALLOC; a project may size it with -D. */
#ifndef LOUPE_RPC_ARENA_BYTES
#define LOUPE_RPC_ARENA_BYTES (16u * 1024u * 1024u)
#endif

enum { kAbortExitStatus = 71, kPipeExitStatus = 1 };

/* Nanoseconds, modulo 2^32: the profiler's 32-bit ticks wrap every 4.29 s,
 * so a single operator (and a whole RUN) must be shorter than that. */
uint32_t TVMPlatformProfilerTicks(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint32_t)((uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
}

uint32_t TVMPlatformProfilerTicksPerSecond(void) {
  return 1000000000u;
}

/* Responses are collected here and written once per received chunk, not a
 * system call per byte. */
static uint8_t output[4096];
static size_t output_size;

static int write_all(const uint8_t* data, size_t size) {
  while (size > 0) {
    ssize_t written = write(1, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return 0;
    }
    data += written;
    size -= (size_t)written;
  }
  return 1;
}

static void flush_output(void) {
  if (!write_all(output, output_size)) _exit(kPipeExitStatus);
  output_size = 0;
}

static tvm_crt_error_t pipe_write(void* context, uint8_t byte) {
  (void)context;
  if (output_size == sizeof(output)) flush_output();
  output[output_size++] = byte;
  return kTvmErrorNoError;
}

static TVMRpcServer server;
static int server_ready;
static union {
  uint64_t align;
  uint8_t bytes[LOUPE_RPC_ARENA_BYTES];
} arena;

/* Tells the host why (a LOG "abort 0x...") before exiting with status 71. */
void TVMPlatformAbort(tvm_crt_error_t error_code) {
  char text[LOUPE_RPC_ABORT_TEXT_BYTES];
  loupe_rpc_abort_text(error_code, text);
  if (server_ready) {
    TVMRpcServerLog(&server, text);
    flush_output();
  }
  _exit(kAbortExitStatus);
}

int main(void) {
  static uint8_t input[4096];
  loupe_rpc_firmware_start(&server, "native", arena.bytes, sizeof(arena.bytes), pipe_write, NULL);
  server_ready = 1;
  flush_output();
  for (;;) {
    ssize_t i;
    ssize_t received = read(0, input, sizeof(input));
    if (received == 0) return 0;
    if (received < 0) {
      if (errno == EINTR) continue;
      return kPipeExitStatus;
    }
    for (i = 0; i < received; ++i) TVMRpcServerFeed(&server, input[i]);
    flush_output();
  }
}
