/** The error codes the tickets feature itself raises; the features that answer requests re-export them. */
export const TicketCodes = {
  INVALID_TRANSITION: 'INVALID_TRANSITION',
  /** Contract §20: "I need more time" is for a WAITING ticket only. */
  TICKET_NOT_WAITING: 'TICKET_NOT_WAITING',
  /** Contract §20: a ticket asked for more time twice already. */
  MORE_TIME_LIMIT_REACHED: 'MORE_TIME_LIMIT_REACHED',
} as const

export type TicketCode = (typeof TicketCodes)[keyof typeof TicketCodes]
