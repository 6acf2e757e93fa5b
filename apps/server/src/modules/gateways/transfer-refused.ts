/** A transfer the gateway refused for good (the account cannot receive, the charge cannot fund it). */
export class TransferRefusedError extends Error {
  override name = 'TransferRefusedError';
}
