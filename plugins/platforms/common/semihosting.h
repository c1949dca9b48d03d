/* Arm semihosting calls the firmware makes to its debugger or emulator.
 * Only exit is needed: it ends a QEMU run with the firmware's status, so a
 * test sees pass or fail as QEMU's exit code (QEMU needs
 * -semihosting-config enable=on,target=native). Without a semihosting host
 * the BKPT instruction halts or faults the core, so a real board's board.h
 * defines LOUPE_BOARD_NO_SEMIHOSTING and exit parks the core instead (with
 * interrupts off; the reset button or the programmer restarts it). */
#ifndef LOUPE_PLATFORMS_SEMIHOSTING_H
#define LOUPE_PLATFORMS_SEMIHOSTING_H

/* Ends the program with `status` (0 success). Never returns. */
void semihosting_exit(int status) __attribute__((noreturn));

#endif
