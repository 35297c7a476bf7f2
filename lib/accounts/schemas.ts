import { z } from "zod";

export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: "must be an email address" }));

export const PasswordSchema = z
  .string()
  .min(10, "must be at least 10 characters")
  .max(256, "must be at most 256 characters");

export const CreateUserInput = z.strictObject({
  email: EmailSchema,
  password: PasswordSchema,
  name: z.string().trim().min(1).max(100).optional(),
});
export type CreateUserInput = z.input<typeof CreateUserInput>;
