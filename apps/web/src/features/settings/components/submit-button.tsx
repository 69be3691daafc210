import { BusyButton, type TBusyButtonProps } from '@/components/ui/busy-button';

/** A form's submit button: disabled with a spinner while the request runs. */
export function SubmitButton({
  pending,
  ...props
}: Omit<TBusyButtonProps, 'busy'> & { pending: boolean }) {
  return <BusyButton type="submit" busy={pending} {...props} />;
}
