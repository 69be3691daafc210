import { zodResolver } from '@hookform/resolvers/zod';
import { ZLoginTwoFactorInput } from '@portico/shared/auth/account';
import { ZLoginInput, ZRegisterForm } from '@portico/shared/auth/schemas';

// Loaded by the landing forms on their first check (lazyResolver), never with the page.
export const loginResolver = zodResolver(ZLoginInput);
export const registerResolver = zodResolver(ZRegisterForm);
export const loginTwoFactorResolver = zodResolver(ZLoginTwoFactorInput);
