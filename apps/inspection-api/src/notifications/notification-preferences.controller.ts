import { All, Controller, Get, Param, Patch, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@fieldops/auth';
import { type Request } from 'express';
import { InspectorsMay } from '../auth/role-access';
import { type Principal } from '../auth/tokens.service';
import { Body, type RequestInput } from '../drf/request-input';
import { parseId } from '../drf/resource-routes';
import { otherMethod, PREFERENCE_METHODS } from '../drf/routes';
import {
  type NotificationPreferencesBody,
  NotificationPreferencesService,
} from './notification-preferences.service';

/**
 * `/api/users/me/notifications/`: what the signed-in person is told, and when (any role). Supervisors (and the
 * inspection bot's service account, for the chat's `notifications` command) reach anyone's at
 * `/api/users/{id}/notifications/`.
 */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('api/users')
export class NotificationPreferencesController {
  constructor(private readonly preferences: NotificationPreferencesService) {}

  @Get('me/notifications')
  @InspectorsMay('per-object')
  @ApiOperation({ summary: 'Your notification preferences (events, quiet hours, time zone, reminder time)' })
  mine(@CurrentPrincipal() principal: Principal): Promise<NotificationPreferencesBody> {
    return this.preferences.find(principal.userId);
  }

  @Put('me/notifications')
  @InspectorsMay('per-object')
  @ApiOperation({ summary: 'Replace your notification preferences (events required)' })
  replaceMine(
    @CurrentPrincipal() principal: Principal,
    @Body() body: RequestInput,
  ): Promise<NotificationPreferencesBody> {
    return this.preferences.update(principal.userId, body.read(), false);
  }

  @Patch('me/notifications')
  @InspectorsMay('per-object')
  @ApiOperation({ summary: 'Change some of your notification preferences' })
  changeMine(
    @CurrentPrincipal() principal: Principal,
    @Body() body: RequestInput,
  ): Promise<NotificationPreferencesBody> {
    return this.preferences.update(principal.userId, body.read(), true);
  }

  @All('me/notifications')
  @InspectorsMay('per-object')
  @ApiExcludeEndpoint()
  mineOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, PREFERENCE_METHODS, 'Notification Preferences');
  }

  @Get(':id/notifications')
  @InspectorsMay('none')
  @ApiOperation({ summary: "A person's notification preferences (supervisors)" })
  find(@Param('id') id: string): Promise<NotificationPreferencesBody> {
    return this.preferences.find(parseId(id));
  }

  @Put(':id/notifications')
  @InspectorsMay('none')
  @ApiOperation({ summary: "Replace a person's notification preferences (supervisors)" })
  replace(@Param('id') id: string, @Body() body: RequestInput): Promise<NotificationPreferencesBody> {
    return this.preferences.update(parseId(id), body.read(), false);
  }

  @Patch(':id/notifications')
  @InspectorsMay('none')
  @ApiOperation({ summary: "Change some of a person's notification preferences (supervisors)" })
  change(@Param('id') id: string, @Body() body: RequestInput): Promise<NotificationPreferencesBody> {
    return this.preferences.update(parseId(id), body.read(), true);
  }

  @All(':id/notifications')
  @InspectorsMay('none')
  @ApiExcludeEndpoint()
  other(@Req() request: Request): Promise<object> {
    return otherMethod(request, PREFERENCE_METHODS, 'Notification Preferences');
  }
}
