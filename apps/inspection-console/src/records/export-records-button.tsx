import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useListContext, useNotify, useTranslate } from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type CheckRecord } from '../api/resources';

/**
 * Downloads `GET /api/records/export.csv` with the list's current filter: the API streams every matching record
 * (not only the page on screen) with absolute photo URLs; the browser saves it as records.csv.
 */
export function ExportRecordsButton() {
  const { filterValues } = useListContext<CheckRecord>() as { filterValues: Record<string, unknown> };
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const blob = await dataProvider.exportRecords(filterValues);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'records.csv';
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={() => void download()}>
      {translate('console.records.export')}
    </Button>
  );
}
