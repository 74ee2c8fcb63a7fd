// One home for the validation library.
export { z } from "zod";
