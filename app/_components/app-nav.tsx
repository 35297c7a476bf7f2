"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/record", label: "Record" },
  { href: "/transcripts", label: "Transcripts" },
  { href: "/content", label: "Content" },
  { href: "/channels", label: "Channels" },
  { href: "/dictionary", label: "Dictionary" },
  { href: "/keys", label: "API keys" },
];

export function AppNav() {
  const pathname = usePathname();
  return (
    <nav className="app-nav" aria-label="Main">
      <ul>
        {LINKS.map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={pathname.startsWith(link.href) ? "page" : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
