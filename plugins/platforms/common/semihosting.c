/* Semihosting exit for M-profile cores (BKPT 0xAB); see semihosting.h. */
#include "semihosting.h"

#include <stdint.h>

#include "board.h"

#if defined(LOUPE_BOARD_NO_SEMIHOSTING)

void semihosting_exit(int status) {
  (void)status;
  __asm__ volatile("cpsid i" ::: "memory");
  for (;;) {
  }
}

#else

enum {
  kSysExit = 0x18,
  kSysExitExtended = 0x20,
  kStoppedApplicationExit = 0x20026,
  kStoppedRunTimeErrorUnknown = 0x20023
};

/* One semihosting call: operation in r0, argument in r1, result in r0. */
static uint32_t semihosting_call(uint32_t operation, uint32_t argument) {
  register uint32_t r0 __asm__("r0") = operation;
  register uint32_t r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void semihosting_exit(int status) {
  if (status == 0) {
    /* Plain SYS_EXIT: every semihosting host maps ApplicationExit to 0. */
    semihosting_call(kSysExit, kStoppedApplicationExit);
  } else {
    /* On 32-bit cores only SYS_EXIT_EXTENDED (semihosting 2.0) carries a
     * status; a host without it falls through to a generic error exit. */
    static uint32_t block[2];
    block[0] = kStoppedApplicationExit;
    block[1] = (uint32_t)status;
    semihosting_call(kSysExitExtended, (uint32_t)(uintptr_t)block);
    semihosting_call(kSysExit, kStoppedRunTimeErrorUnknown);
  }
  for (;;) {
  }
}

#endif
