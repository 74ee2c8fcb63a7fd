/** The drover version, printed by --version and carried in every JSON envelope's producer field. */
export const VERSION = "0.1.0";
