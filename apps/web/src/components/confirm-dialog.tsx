import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { type TActionElement, Unavailable } from '@/components/ui/unavailable';

type TConfirmProps = {
  trigger: TActionElement;
  /** Why the action cannot be taken now: the trigger then only says so (see Unavailable). */
  unavailable?: string | null;
  title: string;
  description: string;
  confirm: string;
  onConfirm: () => void;
  testId: string;
};

/** A question with Cancel and one confirming action, opened by `trigger`. */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirm,
  onConfirm,
  testId,
  unavailable,
}: TConfirmProps) {
  const { t } = useTranslation();
  if (unavailable) return <Unavailable reason={unavailable}>{trigger}</Unavailable>;
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent data-testid={`${testId}-dialog`}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{t('proxies.dialog.cancel')}</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm} data-testid={`${testId}-confirm`}>
            {confirm}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
