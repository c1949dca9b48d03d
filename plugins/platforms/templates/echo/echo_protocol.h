/* The byte protocol of the echo firmware, shared by the firmware and the
 * host test. Every byte value must be echoable, so the terminator is
 * escaped: DLE then DLE stands for one data byte 0x10, DLE then EOT ends the
 * run. Nothing else may follow DLE. */
#ifndef LOUPE_PLATFORMS_ECHO_PROTOCOL_H
#define LOUPE_PLATFORMS_ECHO_PROTOCOL_H

#define ECHO_ESCAPE 0x10u     /* DLE */
#define ECHO_TERMINATOR 0x04u /* EOT, meaningful only after DLE */
/* ACK: sent once when the UART is ready. A UART drops what arrives before
 * it is enabled (QEMU's STM32 USART too), so the host waits for it. */
#define ECHO_READY 0x06u

/* Exit status of a firmware that received DLE followed by anything else. */
#define ECHO_STATUS_PROTOCOL_ERROR 3

#endif
