/**
 * The most a value of each SSM Parameter Store tier holds, in bytes: 4 KB for
 * Standard, 8 KB for Advanced (and for Intelligent-Tiering, which moves a
 * parameter to Advanced when it needs to).
 */
export const TIER_LIMITS: Readonly<Record<string, number>> = {
  'Standard': 4096,
  'Advanced': 8192,
  'Intelligent-Tiering': 8192,
};
