import { zodResolver } from '@hookform/resolvers/zod';
import { type TDestinationInput, ZDestinationInput } from '@portico/shared/admin/destinations';
import type { TDestinationServer } from '@portico/shared/proxy/api';
import * as React from 'react';
import { Controller, type FieldError, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { CodeInput, Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { applyServerIssues, fieldErrorText } from '@/lib/form-errors';
import { toastFailure } from '@/lib/toast-outcome';
import { useAdminTexts } from '@/lib/use-group-texts';
import { useCreateDestination, useUpdateDestination } from '../api/mutations';

type TForm = z.input<typeof ZDestinationInput>;
const FIELDS = ['name', 'endpoint', 'description', 'maintenanceNote'] as const;

function defaults(destination: TDestinationServer | null): TForm {
  return {
    name: destination?.name ?? '',
    endpoint: destination?.endpoint ?? '',
    description: destination?.description ?? '',
    isActive: destination?.isActive ?? true,
    maintenanceNote: destination?.maintenanceNote ?? '',
  };
}

/** Create (destination null) or edit a destination server, validated with the shared schema. */
export function DestinationFormDialog({
  destination,
  open,
  onOpenChange,
}: {
  destination: TDestinationServer | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useAdminTexts();
  const create = useCreateDestination();
  const update = useUpdateDestination();
  const form = useForm<TForm, unknown, TDestinationInput>({
    resolver: zodResolver(ZDestinationInput),
    mode: 'onTouched',
    defaultValues: defaults(destination),
  });
  const { reset } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: start over each time it opens
  React.useEffect(() => {
    if (open) reset(defaults(destination));
  }, [open, reset]);

  const pending = create.isPending || update.isPending;
  const onSubmit = form.handleSubmit(async (input) => {
    try {
      if (destination) await update.mutateAsync({ id: destination.id, input });
      else await create.mutateAsync(input);
      toast({
        title: t(destination ? 'admin.destinations.updated' : 'admin.destinations.created'),
        description: input.name,
      });
      onOpenChange(false);
    } catch (error) {
      applyServerIssues(error, form.setError, FIELDS);
      toastFailure(error, t, t('admin.destinations.saveFailed'));
    }
  });

  const err = (name: (typeof FIELDS)[number]) =>
    fieldErrorText(form.formState.errors[name] as FieldError | undefined, t);
  return (
    <Dialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <DialogContent data-testid="destination-dialog">
        <DialogHeader>
          <DialogTitle>
            {destination ? t('admin.destinations.editTitle') : t('admin.destinations.createTitle')}
          </DialogTitle>
          <DialogDescription>{t('admin.destinations.formDescription')}</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" id="destination-form">
          <Field id="destination-name" label={t('admin.destinations.name')} error={err('name')}>
            {(aria) => <Input {...aria} {...form.register('name')} />}
          </Field>
          <Field
            id="destination-endpoint"
            label={t('admin.destinations.endpoint')}
            hint={t('admin.destinations.endpointHint')}
            error={err('endpoint')}
          >
            {(aria) => (
              <CodeInput {...aria} placeholder="10.0.0.5:8080" {...form.register('endpoint')} />
            )}
          </Field>
          <Field
            id="destination-description"
            label={t('admin.destinations.descriptionLabel')}
            error={err('description')}
          >
            {(aria) => <Textarea {...aria} rows={2} {...form.register('description')} />}
          </Field>
          <div className="flex items-center gap-2">
            <Controller
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <Checkbox
                  id="destination-active"
                  checked={field.value ?? true}
                  onCheckedChange={(value) => field.onChange(value === true)}
                  onBlur={field.onBlur}
                />
              )}
            />
            <Label htmlFor="destination-active">{t('admin.destinations.active')}</Label>
          </div>
          <Field
            id="destination-maintenance"
            label={t('admin.destinations.maintenanceNote')}
            error={err('maintenanceNote')}
          >
            {(aria) => <Textarea {...aria} rows={2} {...form.register('maintenanceNote')} />}
          </Field>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('admin.common.cancel')}
          </Button>
          <BusyButton
            busy={pending}
            type="submit"
            form="destination-form"
            data-testid="destination-save"
          >
            {t('admin.common.save')}
          </BusyButton>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
