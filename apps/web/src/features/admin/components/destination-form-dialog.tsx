import { zodResolver } from '@hookform/resolvers/zod';
import { type TDestinationInput, ZDestinationInput } from '@portico/shared/admin/destinations';
import type { TDestinationServer } from '@portico/shared/proxy/api';
import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  FormDialog,
  FormDialogFooter,
  fieldErrorOf,
  showSaveFailure,
} from '@/components/form-dialog';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { CodeInput, Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
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
      showSaveFailure(error, form, {
        fields: FIELDS,
        t,
        title: t('admin.destinations.saveFailed'),
        toastWhenPlaced: true,
      });
    }
  });

  const err = fieldErrorOf(form, t);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      title={destination ? t('admin.destinations.editTitle') : t('admin.destinations.createTitle')}
      description={t('admin.destinations.formDescription')}
      testId="destination-dialog"
    >
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
      <FormDialogFooter
        formId="destination-form"
        pending={pending}
        onCancel={() => onOpenChange(false)}
        cancelLabel={t('admin.common.cancel')}
        saveLabel={t('admin.common.save')}
        saveTestId="destination-save"
      />
    </FormDialog>
  );
}
