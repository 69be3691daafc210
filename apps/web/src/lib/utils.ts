import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names; later Tailwind utilities win over earlier conflicting ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/**
 * Up to two upper-case initials: first and last name when known, else the username's first two
 * words (jane_doe → JD) or first two characters (jane → JA).
 */
export function initials(user: {
  username: string;
  firstName?: string | null;
  lastName?: string | null;
}): string {
  const first = user.firstName?.trim();
  const last = user.lastName?.trim();
  if (first && last) return `${first[0]}${last[0]}`.toUpperCase();
  if (first) return first.slice(0, 2).toUpperCase();
  const words = user.username.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const [a = user.username, b] = words;
  return (b ? `${a[0]}${b[0]}` : a.slice(0, 2)).toUpperCase();
}
