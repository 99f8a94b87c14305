import PrintIcon from '@mui/icons-material/Print';
import { Alert, Box, Button, CircularProgress, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { type Device } from '../api/resources';
import {
  configuredChatUrl,
  defaultChatUrl,
  labelUrl,
  normalChatUrl,
  rememberChatUrl,
  rememberedChatUrl,
} from './chat-address';

/** The sheet's address: `#/labels?ids=1,2,3`. */
export function labelSheetPath(ids: readonly (number | string)[]): string {
  return `/labels?ids=${ids.map(String).join(',')}`;
}

function idsOf(search: string): number[] {
  const text = new URLSearchParams(search).get('ids') ?? '';
  return [
    ...new Set(
      text
        .split(',')
        .map(Number)
        .filter((id) => Number.isInteger(id) && id > 0),
    ),
  ];
}

/** One label: the QR code (an SVG drawn by `qrcode`), the device's name, code and location. */
function Label({ device, chatUrl }: { device: Device; chatUrl: string }) {
  const translate = useTranslate();
  const url = labelUrl(chatUrl, device.code);
  const { data: svg } = useQuery({
    queryKey: ['label-qr', url],
    queryFn: () => QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 }),
  });
  return (
    <Box component="article" className="label" data-code={device.code} data-url={url}>
      <Box
        className="label-qr"
        role="img"
        aria-label={translate('console.labels.qr_label', { code: device.code })}
        // The library's own SVG markup (paths only), drawn from the URL above.
        dangerouslySetInnerHTML={{ __html: svg ?? '' }}
      />
      <Box className="label-text">
        <Typography component="h2" className="label-name">
          {device.name}
        </Typography>
        <Typography className="label-code">{device.code}</Typography>
        {device.location ? <Typography className="label-location">{device.location}</Typography> : null}
        <Typography className="label-hint">{translate('console.labels.scan_hint')}</Typography>
      </Box>
    </Box>
  );
}

const sheetStyles = {
  p: { xs: 2, sm: 4 },
  maxWidth: 1000,
  mx: 'auto',
  '& .labels': {
    display: 'grid',
    gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
    gap: 2,
    mt: 2,
  },
  '& .label': {
    display: 'flex',
    gap: 2,
    alignItems: 'center',
    border: '1px solid #9aa4ae',
    borderRadius: 1,
    p: 1.5,
    breakInside: 'avoid',
    pageBreakInside: 'avoid',
  },
  '& .label-qr': { width: 128, height: 128, flex: '0 0 128px' },
  '& .label-qr svg': { width: '100%', height: '100%', display: 'block' },
  '& .label-name': { fontSize: 18, fontWeight: 700, lineHeight: 1.25 },
  '& .label-code': { fontFamily: 'ui-monospace, monospace', fontSize: 16, fontWeight: 600 },
  '& .label-location': { fontSize: 14 },
  '& .label-hint': { fontSize: 12, color: '#3d4751', mt: 0.5 },
  '@media print': {
    p: 0,
    maxWidth: 'none',
    '& .no-print': { display: 'none' },
    '& .labels': { gridTemplateColumns: '1fr 1fr', gap: '6mm', mt: 0 },
    '& .label': { borderColor: '#000' },
  },
} as const;

/**
 * A printable sheet of QR labels for the devices in `?ids=`: each code opens the chat page's `/d/CODE`, which starts
 * that device's check. The browser's Print (or Save as PDF) prints the labels only (print CSS), two to a row.
 */
export function LabelSheet() {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const navigate = useNavigate();
  const ids = idsOf(useLocation().search);
  const [chatUrl, setChatUrl] = useState<string | undefined>();
  const [typed, setTyped] = useState('');
  const [configured, setConfigured] = useState(false);

  useEffect(() => {
    let live = true;
    void configuredChatUrl().then((fromConfig) => {
      if (!live) return;
      const url = fromConfig ?? rememberedChatUrl() ?? defaultChatUrl();
      setConfigured(fromConfig !== undefined);
      setChatUrl(url);
      setTyped(url);
    });
    return () => {
      live = false;
    };
  }, []);

  const { data, error, isPending } = useQuery({
    queryKey: ['devices', 'labels', ids],
    queryFn: async () => (await dataProvider.getMany<Device>('devices', { ids })).data,
    enabled: ids.length > 0,
  });

  useEffect(() => {
    const title = document.title;
    document.title = translate('console.labels.title');
    return () => {
      document.title = title;
    };
  }, [translate]);

  const typedUrl = normalChatUrl(typed);
  return (
    <Box component="main" sx={sheetStyles}>
      <Box className="no-print" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Typography component="h1" variant="h5" sx={{ flex: '1 1 auto' }}>
          {translate('console.labels.title')}
        </Typography>
        <Button variant="outlined" onClick={() => void navigate('/devices')}>
          {translate('console.labels.back')}
        </Button>
        <Button
          variant="contained"
          startIcon={<PrintIcon />}
          disabled={!data?.length || !chatUrl}
          onClick={() => window.print()}
        >
          {translate('console.labels.print')}
        </Button>
      </Box>
      <Box className="no-print" sx={{ mt: 2 }}>
        <TextField
          label={translate('console.labels.chat_url')}
          value={typed}
          disabled={configured}
          onChange={(event) => {
            setTyped(event.target.value);
            const url = normalChatUrl(event.target.value);
            if (url) {
              setChatUrl(url);
              rememberChatUrl(url);
            }
          }}
          error={typed !== '' && !typedUrl}
          helperText={translate(
            configured ? 'console.labels.chat_url_configured' : 'console.labels.chat_url_help',
          )}
          fullWidth
          size="small"
        />
      </Box>
      {ids.length === 0 ? (
        <Alert severity="info" sx={{ mt: 2 }}>
          {translate('console.labels.none')}
        </Alert>
      ) : isPending || !chatUrl ? (
        <Box sx={{ mt: 4, display: 'flex', gap: 2, alignItems: 'center' }}>
          <CircularProgress size={24} />
          <Typography>{translate('console.state.loading')}</Typography>
        </Box>
      ) : error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {translate('console.state.error', { message: error.message })}
        </Alert>
      ) : (
        <Box className="labels">
          {data?.map((device) => (
            <Label key={device.id} device={device} chatUrl={chatUrl} />
          ))}
        </Box>
      )}
    </Box>
  );
}
