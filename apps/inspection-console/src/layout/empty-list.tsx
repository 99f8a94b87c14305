import InboxIcon from '@mui/icons-material/Inbox';
import { Box, Typography } from '@mui/material';
import { CreateButton, useResourceContext, useTranslate } from 'react-admin';

/** The empty state of a list: what is missing, and the button that makes the first one (when there is one). */
export function EmptyList({ canCreate = true }: { canCreate?: boolean }) {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const name = translate(`resources.${resource}.name`, { smart_count: 2 }).toLocaleLowerCase();
  return (
    <Box sx={{ textAlign: 'center', m: 4, color: 'text.secondary' }} role="status">
      <InboxIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" sx={{ mb: 1 }}>
        {translate('ra.page.empty', { name })}
      </Typography>
      {canCreate && (
        <>
          <Typography sx={{ mb: 2 }}>{translate('ra.page.invite')}</Typography>
          <CreateButton variant="contained" />
        </>
      )}
    </Box>
  );
}
