/*
 * Status codes and the error record every part of the Ethos-U model
 * (payload, command stream, weights, executor, driver) reports through: a
 * code a program can test and a message a person can read, saying what was
 * expected and what was found. No allocation, no printf.
 */
#ifndef LOUPE_ETHOSU_ERROR_H_
#define LOUPE_ETHOSU_ERROR_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum loupe_ethosu_status {
  LOUPE_ETHOSU_OK = 0,
  LOUPE_ETHOSU_ERR_ARGUMENT = -1,           /* a null pointer or negative size */
  LOUPE_ETHOSU_ERR_FOURCC = -2,             /* payload does not start with "COP1" */
  LOUPE_ETHOSU_ERR_PAYLOAD_SIZE = -3,       /* payload not a whole number of words */
  LOUPE_ETHOSU_ERR_UNKNOWN_ACTION = -4,     /* driver action the driver does not know */
  LOUPE_ETHOSU_ERR_ACTION_TRUNCATED = -5,   /* a driver action runs past the payload */
  LOUPE_ETHOSU_ERR_CONFIG_MISMATCH = -6,    /* compiled for another NPU */
  LOUPE_ETHOSU_ERR_NO_COMMAND_STREAM = -7,  /* payload without a command stream */
  LOUPE_ETHOSU_ERR_UNKNOWN_COMMAND = -8,    /* command word with an unknown opcode */
  LOUPE_ETHOSU_ERR_STREAM_TRUNCATED = -9,   /* cmd1 without its payload word, or no STOP */
  LOUPE_ETHOSU_ERR_INVALID_OPERATION = -10, /* register values the NPU cannot run */
  LOUPE_ETHOSU_ERR_REGION = -11,            /* region number without a base address */
  LOUPE_ETHOSU_ERR_ADDRESS = -12,           /* access outside its region */
  LOUPE_ETHOSU_ERR_WEIGHT_STREAM = -13,     /* malformed encoded weights */
  LOUPE_ETHOSU_ERR_WORKSPACE = -14,         /* caller's workspace too small */
  LOUPE_ETHOSU_ERR_UNSUPPORTED = -15,       /* valid, but not modelled */
  LOUPE_ETHOSU_ERR_ALIGNMENT = -16,         /* base address or stream not 16-byte aligned */
  LOUPE_ETHOSU_ERR_STOPPED = -17            /* the per-operation hook asked to stop */
};

#define LOUPE_ETHOSU_MESSAGE_CAPACITY 192

typedef struct loupe_ethosu_error {
  int code; /* enum loupe_ethosu_status */
  char message[LOUPE_ETHOSU_MESSAGE_CAPACITY];
} loupe_ethosu_error;

/* The status's name, "LOUPE_ETHOSU_ERR_FOURCC". */
const char* loupe_ethosu_status_name(int code);

/* Message building without printf: start with a code and a text, append
 * pieces; a message longer than the capacity is cut. err may be NULL.
 * Each returns `code` of the last loupe_ethosu_fail, so a caller can write
 * `return loupe_ethosu_fail(err, CODE, "...")`. */
int loupe_ethosu_fail(loupe_ethosu_error* err, int code, const char* text);
void loupe_ethosu_append(loupe_ethosu_error* err, const char* text);
void loupe_ethosu_append_u(loupe_ethosu_error* err, uint64_t value);
void loupe_ethosu_append_i(loupe_ethosu_error* err, int64_t value);
void loupe_ethosu_append_hex(loupe_ethosu_error* err, uint64_t value);
void loupe_ethosu_clear_error(loupe_ethosu_error* err);

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_ETHOSU_ERROR_H_ */
