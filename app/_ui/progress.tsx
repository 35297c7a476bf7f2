import styles from "./ui.module.css";

/** A determinate bar when `value` is given (0..1), else an indeterminate one. */
export function ProgressBar({ value, label }: { value?: number | null; label: string }) {
  return value === undefined || value === null ? (
    <progress className={styles.progress} aria-label={label} />
  ) : (
    <progress className={styles.progress} aria-label={label} max={100} value={Math.round(Math.min(1, Math.max(0, value)) * 100)} />
  );
}

export function Spinner() {
  return <span className={styles.spinner} aria-hidden="true" />;
}
