/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Polled output on an 8250/16550 UART.  The port was set up by firmware or
 * by the kernel we came from; reprogramming the baud rate could only make
 * a working console worse, so we just write characters.
 */
#include "hw.h"
#include "purgatory.h"

#define UART_THR	0		/* transmit holding register */
#define UART_LSR	5		/* line status register */
#define UART_LSR_THRE	0x20		/* THR empty: room for a byte */

/*
 * Bound the wait: a wedged or absent UART must not hang the boot.  Reads
 * of a missing port return 0xff (THRE set) anyway; this covers the rest.
 * Even at 9600 baud one character takes ~1 ms, far below this bound.
 */
#define UART_POLL_LIMIT	1000000u

void serial_putc(uint16_t port, char c)
{
	unsigned int n;

	for (n = 0; n < UART_POLL_LIMIT; n++)
		if (inb(port + UART_LSR) & UART_LSR_THRE)
			break;
	outb(port + UART_THR, (uint8_t)c);
}
