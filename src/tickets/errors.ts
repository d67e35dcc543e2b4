/** The error codes the tickets feature itself raises; the features that answer requests re-export them. */
export const TicketCodes = {
  INVALID_TRANSITION: 'INVALID_TRANSITION',
} as const

export type TicketCode = (typeof TicketCodes)[keyof typeof TicketCodes]
