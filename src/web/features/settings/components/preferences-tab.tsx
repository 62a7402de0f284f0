import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import type { Preferences } from '../../../../common/api/preferences';
import { PageLoading } from '../../../components/page-loading';
import { PendingButton } from '../../../components/pending-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { withErrorReference } from '../../../lib/error-reference';
import { Switch } from '../../../components/ui/switch';
import { preferencesQuery } from '../../../lib/preferences';
import { useUpdatePreferences } from '../api/update-preferences';
import { useTheme } from '../../../lib/theme';
import { LoadFailed } from '../../../components/load-failed';

// docs/product.md §2 order and labels.
const switches: { key: keyof Preferences; label: string; description: string }[] = [
  { key: 'darkMode', label: 'Dark Mode', description: 'Use the dark theme on every device you log in on.' },
  { key: 'callHistory', label: 'Save Call History', description: 'Keep a record of your calls in Call History.' },
  { key: 'autoAnswer', label: 'Auto-Answer Incoming Calls', description: 'Answer incoming calls after one ring while receiving calls is on.' },
  { key: 'notifications', label: 'Enable Notifications', description: 'Show a notification when a call comes in.' },
  { key: 'dataUsage', label: 'Low Data Mode', description: 'Use less data during calls, at a lower sound quality.' },
  { key: 'recordCalls', label: 'Record calls', description: 'Record each call once it is answered (Premium and Platinum); both sides are told.' },
];

export function PreferencesTab() {
  const preferences = useQuery(preferencesQuery);

  if (preferences.isPending) return <PageLoading />;
  if (preferences.isError) return <LoadFailed message={preferences.error.message} onRetry={() => void preferences.refetch()} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Preferences</CardTitle>
        <CardDescription>How Voxline looks and behaves for you.</CardDescription>
      </CardHeader>
      <CardContent>
        <PreferencesForm saved={preferences.data} />
      </CardContent>
    </Card>
  );
}

function PreferencesForm({ saved }: { saved: Preferences }) {
  const [values, setValues] = useState(saved);
  // Saved elsewhere meanwhile (another tab or device, docs/architecture.md#sync): the switches show what is saved now.
  const [shownSaved, setShownSaved] = useState(saved);
  if (saved !== shownSaved) {
    setShownSaved(saved);
    setValues(saved);
  }
  const updatePreferences = useUpdatePreferences();
  const { setTheme } = useTheme();
  const id = useId();

  function save() {
    updatePreferences.mutate(values, {
      onSuccess: (preferences) => {
        setTheme(preferences.darkMode ? 'dark' : 'light');
        toast.success('Preferences updated');
      },
      onError: (error) => toast.error('Failed to update preferences.', { description: withErrorReference(error.message, error) }),
    });
  }

  // Not a <form>: switches have nothing to submit with Enter, and outside a form Radix adds no hidden inputs.
  return (
    <div className="flex flex-col gap-6">
      <ul className="flex flex-col divide-y">
        {switches.map(({ key, label, description }) => (
          <li key={key} className="flex items-center justify-between gap-4 py-3 first:pt-0">
            <div className="flex flex-col gap-1">
              <Label htmlFor={`${id}-${key}`}>{label}</Label>
              <p id={`${id}-${key}-description`} className="text-sm text-muted-foreground">
                {description}
              </p>
            </div>
            <Switch
              id={`${id}-${key}`}
              checked={values[key]}
              onCheckedChange={(checked) => setValues((current) => ({ ...current, [key]: checked }))}
              aria-describedby={`${id}-${key}-description`}
            />
          </li>
        ))}
      </ul>
      <PendingButton className="w-full sm:w-fit" onClick={save} pending={updatePreferences.isPending}>
        Save Preferences
      </PendingButton>
    </div>
  );
}
