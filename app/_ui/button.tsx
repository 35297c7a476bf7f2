import Link from "next/link";
import type { ButtonHTMLAttributes, ComponentProps, ReactNode } from "react";
import styles from "./ui.module.css";

type Variant = "primary" | "secondary" | "ghost" | "danger" | "record";
type Look = { variant?: Variant; size?: "normal" | "large"; block?: boolean };

const classes = ({ variant = "primary", size = "normal", block = false }: Look, extra?: string) =>
  [styles.button, styles[variant], size === "large" && styles.large, block && styles.block, extra].filter(Boolean).join(" ");

export function Button({ variant, size, block, className, type = "button", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & Look) {
  return <button type={type} className={classes({ variant, size, block }, className)} {...props} />;
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({ variant, size, block, className, ...props }: ComponentProps<typeof Link> & Look) {
  return <Link className={classes({ variant, size, block }, className)} {...props} />;
}

/** A square button with only an icon: the label is required and becomes its accessible name. */
export function IconButton({
  label,
  icon,
  variant = "ghost",
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { label: string; icon: ReactNode; variant?: Variant }) {
  return (
    <button type={type} aria-label={label} title={label} className={classes({ variant }, `${styles.iconButton} ${className ?? ""}`)} {...props}>
      {icon}
    </button>
  );
}
