import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Box, Button, Popover, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useLocaleState, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { type ConsoleDataProvider, type ReportKind } from '../api/data-provider';
import { saveDownload } from '../records/export-records-button';

/** Today, or a day from it, as `YYYY-MM-DD` in the browser's time zone. */
function day(offset = 0): string {
  const date = new Date();
  date.setDate(date.getDate() + offset);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * "Download PDF" (`GET /api/{records|devices|plans}/{id}/report.pdf`, docs/protocols/inspection-api.md) in the
 * console's language: a record's report at once; a device's history for a date range (the last 30 days at first)
 * and a plan's round for the period containing a day (today at first) from a small form.
 */
export function DownloadReportButton({ kind }: { kind: ReportKind }) {
  const record = useRecordContext<{ id: number }>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [from, setFrom] = useState(() => day(-29));
  const [to, setTo] = useState(() => day());
  const [date, setDate] = useState(() => day());
  if (!record) return null;
  const download = async () => {
    setBusy(true);
    try {
      const query: Record<string, string> = { lang: locale === 'zh-CN' ? 'zh-CN' : 'en' };
      if (kind === 'devices') Object.assign(query, { from, to });
      if (kind === 'plans') query.date = date;
      const { blob, filename } = await dataProvider.downloadReport(kind, record.id, query);
      saveDownload(blob, filename);
      setAnchor(null);
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const id = `report-${kind}-form`;
  return (
    <>
      <Button
        size="small"
        startIcon={<PictureAsPdfIcon />}
        disabled={busy}
        aria-haspopup={kind === 'records' ? undefined : 'dialog'}
        aria-controls={anchor ? id : undefined}
        onClick={(event) => (kind === 'records' ? void download() : setAnchor(event.currentTarget))}
      >
        {translate(busy ? 'console.reports.preparing' : 'console.reports.download')}
      </Button>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box
          id={id}
          role="dialog"
          aria-label={translate('console.reports.download')}
          component="form"
          sx={{ p: 2, maxWidth: 340 }}
          onSubmit={(event) => {
            event.preventDefault();
            void download();
          }}
        >
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {translate(kind === 'devices' ? 'console.reports.device_hint' : 'console.reports.plan_hint')}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ mb: 1.5 }}>
            {kind === 'devices' ? (
              <>
                <TextField
                  type="date"
                  size="small"
                  label={translate('console.reports.from')}
                  value={from}
                  onChange={(event) => setFrom(event.target.value)}
                  slotProps={{ inputLabel: { shrink: true } }}
                  required
                />
                <TextField
                  type="date"
                  size="small"
                  label={translate('console.reports.to')}
                  value={to}
                  onChange={(event) => setTo(event.target.value)}
                  slotProps={{ inputLabel: { shrink: true } }}
                  required
                />
              </>
            ) : (
              <TextField
                type="date"
                size="small"
                label={translate('console.reports.date')}
                value={date}
                onChange={(event) => setDate(event.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
                required
              />
            )}
          </Stack>
          <Button
            type="submit"
            variant="contained"
            size="small"
            disabled={busy}
            startIcon={<PictureAsPdfIcon />}
          >
            {translate(busy ? 'console.reports.preparing' : 'console.reports.download')}
          </Button>
        </Box>
      </Popover>
    </>
  );
}
