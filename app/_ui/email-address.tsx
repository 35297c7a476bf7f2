import styles from "./ui.module.css";

/**
 * An email address that wraps after its "@" on a narrow screen (maria.fernandez@ / example.com),
 * not at whatever letter reaches the edge; a part still too long for the line breaks anywhere.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  return (
    <strong className={styles.email}>
      {at < 0 ? (
        email
      ) : (
        <>
          {email.slice(0, at + 1)}
          <wbr />
          {email.slice(at + 1)}
        </>
      )}
    </strong>
  );
}
