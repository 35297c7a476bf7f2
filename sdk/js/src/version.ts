export const VERSION = "0.3.0";
