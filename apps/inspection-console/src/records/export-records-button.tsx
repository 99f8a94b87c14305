import DownloadIcon from '@mui/icons-material/Download';
import { Button, ListItemText, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useListContext, useNotify, useTranslate } from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type CheckRecord } from '../api/resources';
import { excelCsv } from './excel-csv';

type ExportForm = 'excel' | 'data';

/** Saves a downloaded file under its name (a link to an object URL, clicked). */
export function saveDownload(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads `GET /api/records/export.csv` with the list's current filter (every matching record, not only the page
 * on screen), in one of two forms: **for Excel** (a byte order mark, column titles and status words in the console's
 * language, local times: `excel-csv.ts`), saved as records-excel.csv, or **as data**, the API's bytes unchanged
 * (UTF-8, ISO 8601 UTC times, the API's codes), saved as records.csv.
 */
export function ExportRecordsButton() {
  const { filterValues } = useListContext<CheckRecord>() as { filterValues: Record<string, unknown> };
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const download = async (form: ExportForm) => {
    setAnchor(null);
    setBusy(true);
    try {
      const blob = await dataProvider.exportRecords(filterValues);
      if (form === 'data') return saveDownload(blob, 'records.csv');
      const text = excelCsv(await blob.text(), {
        column: (name) => translate(`console.records.columns.${name}`, { _: name }),
        status: (status) => translate(`console.status.${status}`, { _: status }),
        source: (source) => translate(`console.records.source.${source}`, { _: source }),
      });
      saveDownload(new Blob([text], { type: 'text/csv;charset=utf-8' }), 'records-excel.csv');
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        disabled={busy}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'export-records-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {translate('console.records.export')}
      </Button>
      <Menu id="export-records-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void download('excel')}>
          <ListItemText
            primary={translate('console.records.export_excel')}
            secondary={translate('console.records.export_excel_hint')}
          />
        </MenuItem>
        <MenuItem onClick={() => void download('data')}>
          <ListItemText
            primary={translate('console.records.export_data')}
            secondary={translate('console.records.export_data_hint')}
          />
        </MenuItem>
      </Menu>
    </>
  );
}
